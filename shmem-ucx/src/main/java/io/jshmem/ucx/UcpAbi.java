/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * The libucp ABI the {@link Ucp} bindings and their callers share (UCX 1.13 API, x86-64/aarch64
 * LP64): status codes, enum and flag values, and the layouts of the parameter structs with their
 * field offsets. Compile-time constants and static finals only: no native call, nothing loaded.
 */
final class UcpAbi {
    private UcpAbi() {
    }

    // ------------------------------------------------------------------ ucs_status_t

    static final byte UCS_OK = 0;
    static final byte UCS_INPROGRESS = 1;
    static final byte UCS_ERR_NO_MESSAGE = -1;
    static final byte UCS_ERR_NO_RESOURCE = -2;
    static final byte UCS_ERR_IO_ERROR = -3;
    static final byte UCS_ERR_INVALID_PARAM = -5;
    static final byte UCS_ERR_UNREACHABLE = -6;
    static final byte UCS_ERR_BUSY = -15;
    static final byte UCS_ERR_CANCELED = -16;
    static final byte UCS_ERR_TIMED_OUT = -20;
    static final byte UCS_ERR_CONNECTION_RESET = -25;
    static final byte UCS_ERR_ENDPOINT_TIMEOUT = -80;
    /** Status pointers at or above {@code (uintptr_t) UCS_ERR_LAST} are errors. */
    static final long UCS_ERR_LAST = -100;

    // ------------------------------------------------------------------ enums and flags (values from ucp.h / ucp_def.h, UCX 1.13)

    static final long UCP_PARAM_FIELD_FEATURES = 1L;
    static final long UCP_PARAM_FIELD_ESTIMATED_NUM_EPS = 1L << 6;
    static final long UCP_PARAM_FIELD_NAME = 1L << 8;

    static final long UCP_FEATURE_RMA = 1L << 1;
    static final long UCP_FEATURE_AMO32 = 1L << 2;
    static final long UCP_FEATURE_AMO64 = 1L << 3;
    static final long UCP_FEATURE_WAKEUP = 1L << 4;
    static final long UCP_FEATURE_AM = 1L << 6;

    static final long UCP_AM_HANDLER_PARAM_FIELD_ID = 1L;
    static final long UCP_AM_HANDLER_PARAM_FIELD_FLAGS = 1L << 1;
    static final long UCP_AM_HANDLER_PARAM_FIELD_CB = 1L << 2;
    static final long UCP_AM_HANDLER_PARAM_FIELD_ARG = 1L << 3;
    static final int UCP_AM_FLAG_WHOLE_MSG = 1;
    static final int UCP_AM_SEND_FLAG_EAGER = 1 << 1;
    static final long UCP_AM_RECV_ATTR_FLAG_DATA = 1L << 16;
    /** In {@code ucp_am_recv_param_t.recv_attr} (its first field): the data is a rendezvous descriptor, not the bytes. */
    static final long UCP_AM_RECV_ATTR_FLAG_RNDV = 1L << 17;

    static final long UCP_WORKER_PARAM_FIELD_THREAD_MODE = 1L;
    static final int UCS_THREAD_MODE_SINGLE = 0;
    static final int UCS_THREAD_MODE_SERIALIZED = 1;
    static final int UCS_THREAD_MODE_MULTI = 2;

    static final long UCP_EP_PARAM_FIELD_REMOTE_ADDRESS = 1L;
    static final long UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE = 1L << 1;
    static final long UCP_EP_PARAM_FIELD_ERR_HANDLER = 1L << 2;
    static final int UCP_ERR_HANDLING_MODE_NONE = 0;
    static final int UCP_ERR_HANDLING_MODE_PEER = 1;

    static final long UCP_MEM_MAP_PARAM_FIELD_ADDRESS = 1L;
    static final long UCP_MEM_MAP_PARAM_FIELD_LENGTH = 1L << 1;
    static final long UCP_MEM_MAP_PARAM_FIELD_FLAGS = 1L << 2;
    static final long UCP_MEM_MAP_PARAM_FIELD_PROT = 1L << 3;
    static final int UCP_MEM_MAP_PROT_LOCAL_READ = 1;
    static final int UCP_MEM_MAP_PROT_LOCAL_WRITE = 2;
    static final int UCP_MEM_MAP_PROT_REMOTE_READ = 1 << 8;
    static final int UCP_MEM_MAP_PROT_REMOTE_WRITE = 1 << 9;

    static final int UCP_OP_ATTR_FIELD_REQUEST = 1;
    static final int UCP_OP_ATTR_FIELD_CALLBACK = 1 << 1;
    static final int UCP_OP_ATTR_FIELD_DATATYPE = 1 << 3;
    static final int UCP_OP_ATTR_FIELD_FLAGS = 1 << 4;
    static final int UCP_OP_ATTR_FIELD_REPLY_BUFFER = 1 << 5;

    static final int UCP_EP_CLOSE_FLAG_FORCE = 1;

    static final int UCP_ATOMIC_OP_ADD = 0;
    static final int UCP_ATOMIC_OP_SWAP = 1;
    static final int UCP_ATOMIC_OP_CSWAP = 2;
    static final int UCP_ATOMIC_OP_AND = 3;
    static final int UCP_ATOMIC_OP_OR = 4;
    static final int UCP_ATOMIC_OP_XOR = 5;

    /** {@code ucp_dt_make_contig(n)}, a macro: {@code (n << 3) | UCP_DATATYPE_CONTIG}. */
    static long dtContig(long elementSize) {
        return elementSize << 3;
    }

    /** The UCP API version the layouts below were taken from (ucp_init_version's arguments). */
    static final int API_MAJOR = 1;
    static final int API_MINOR = 13;

    // ------------------------------------------------------------------ struct layouts (checked against gcc by UcpLayoutTest)

    /** {@code ucp_params_t}: 80 bytes. */
    static final StructLayout PARAMS = MemoryLayout.structLayout(
            JAVA_LONG.withName("field_mask"),
            JAVA_LONG.withName("features"),
            JAVA_LONG.withName("request_size"),
            ADDRESS.withName("request_init"),
            ADDRESS.withName("request_cleanup"),
            JAVA_LONG.withName("tag_sender_mask"),
            JAVA_INT.withName("mt_workers_shared"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("estimated_num_eps"),
            JAVA_LONG.withName("estimated_num_ppn"),
            ADDRESS.withName("name")).withName("ucp_params_t");

    /** {@code ucp_worker_params_t}: 200 bytes ({@code ucs_cpu_set_t} is 128). */
    static final StructLayout WORKER_PARAMS = MemoryLayout.structLayout(
            JAVA_LONG.withName("field_mask"),
            JAVA_INT.withName("thread_mode"),
            MemoryLayout.paddingLayout(4),
            MemoryLayout.sequenceLayout(16, JAVA_LONG).withName("cpu_mask"),
            JAVA_INT.withName("events"),
            MemoryLayout.paddingLayout(4),
            ADDRESS.withName("user_data"),
            JAVA_INT.withName("event_fd"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("flags"),
            ADDRESS.withName("name"),
            JAVA_LONG.withName("am_alignment"),
            JAVA_LONG.withName("client_id")).withName("ucp_worker_params_t");

    /** {@code ucs_sock_addr_t}: pointer + socklen_t. */
    private static final StructLayout SOCK_ADDR = MemoryLayout.structLayout(
            ADDRESS.withName("addr"), JAVA_INT.withName("addrlen"), MemoryLayout.paddingLayout(4));

    /** {@code ucp_ep_params_t}: 104 bytes. */
    static final StructLayout EP_PARAMS = MemoryLayout.structLayout(
            JAVA_LONG.withName("field_mask"),
            ADDRESS.withName("address"),
            JAVA_INT.withName("err_mode"),
            MemoryLayout.paddingLayout(4),
            MemoryLayout.structLayout(ADDRESS.withName("cb"), ADDRESS.withName("arg")).withName("err_handler"),
            ADDRESS.withName("user_data"),
            JAVA_INT.withName("flags"),
            MemoryLayout.paddingLayout(4),
            SOCK_ADDR.withName("sockaddr"),
            ADDRESS.withName("conn_request"),
            ADDRESS.withName("name"),
            SOCK_ADDR.withName("local_sockaddr")).withName("ucp_ep_params_t");

    /** {@code ucp_mem_map_params_t}: 40 bytes. */
    static final StructLayout MEM_MAP_PARAMS = MemoryLayout.structLayout(
            JAVA_LONG.withName("field_mask"),
            ADDRESS.withName("address"),
            JAVA_LONG.withName("length"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("prot"),
            JAVA_INT.withName("memory_type"),
            MemoryLayout.paddingLayout(4)).withName("ucp_mem_map_params_t");

    /** {@code ucp_mem_attr_t}: 32 bytes. */
    static final StructLayout MEM_ATTR = MemoryLayout.structLayout(
            JAVA_LONG.withName("field_mask"),
            ADDRESS.withName("address"),
            JAVA_LONG.withName("length"),
            JAVA_INT.withName("mem_type"),
            MemoryLayout.paddingLayout(4)).withName("ucp_mem_attr_t");

    /** {@code ucp_request_param_t}: 72 bytes; note the uint32 op_attr_mask. */
    static final StructLayout REQUEST_PARAM = MemoryLayout.structLayout(
            JAVA_INT.withName("op_attr_mask"),
            JAVA_INT.withName("flags"),
            ADDRESS.withName("request"),
            ADDRESS.withName("cb"),
            JAVA_LONG.withName("datatype"),
            ADDRESS.withName("user_data"),
            ADDRESS.withName("reply_buffer"),
            JAVA_INT.withName("memory_type"),
            MemoryLayout.paddingLayout(4),
            ADDRESS.withName("recv_info"),
            ADDRESS.withName("memh")).withName("ucp_request_param_t");

    /** {@code ucp_am_handler_param_t}: 32 bytes. */
    static final StructLayout AM_HANDLER_PARAMS = MemoryLayout.structLayout(
            JAVA_LONG.withName("field_mask"),
            JAVA_INT.withName("id"),
            JAVA_INT.withName("flags"),
            ADDRESS.withName("cb"),
            ADDRESS.withName("arg")).withName("ucp_am_handler_param_t");

    /** {@code struct pollfd}. */
    static final StructLayout POLLFD = MemoryLayout.structLayout(
            JAVA_INT.withName("fd"), JAVA_SHORT.withName("events"), JAVA_SHORT.withName("revents"));
    static final short POLLIN = 1;

    static long offset(StructLayout layout, String field) {
        return layout.byteOffset(groupElement(field));
    }

    static final long PARAMS_FIELD_MASK = offset(PARAMS, "field_mask");
    static final long PARAMS_FEATURES = offset(PARAMS, "features");
    static final long PARAMS_ESTIMATED_NUM_EPS = offset(PARAMS, "estimated_num_eps");
    static final long PARAMS_NAME = offset(PARAMS, "name");

    static final long WORKER_FIELD_MASK = offset(WORKER_PARAMS, "field_mask");
    static final long WORKER_THREAD_MODE = offset(WORKER_PARAMS, "thread_mode");

    static final long EP_FIELD_MASK = offset(EP_PARAMS, "field_mask");
    static final long EP_ADDRESS = offset(EP_PARAMS, "address");
    static final long EP_ERR_MODE = offset(EP_PARAMS, "err_mode");
    static final long EP_ERR_HANDLER_CB = EP_PARAMS.byteOffset(groupElement("err_handler"), groupElement("cb"));
    static final long EP_ERR_HANDLER_ARG = EP_PARAMS.byteOffset(groupElement("err_handler"), groupElement("arg"));

    static final long MEM_MAP_FIELD_MASK = offset(MEM_MAP_PARAMS, "field_mask");
    static final long MEM_MAP_ADDRESS = offset(MEM_MAP_PARAMS, "address");
    static final long MEM_MAP_LENGTH = offset(MEM_MAP_PARAMS, "length");
    static final long MEM_MAP_FLAGS = offset(MEM_MAP_PARAMS, "flags");
    static final long MEM_MAP_PROT = offset(MEM_MAP_PARAMS, "prot");

    static final long REQ_OP_ATTR_MASK = offset(REQUEST_PARAM, "op_attr_mask");
    static final long REQ_FLAGS = offset(REQUEST_PARAM, "flags");
    static final long REQ_DATATYPE = offset(REQUEST_PARAM, "datatype");
    static final long REQ_REPLY_BUFFER = offset(REQUEST_PARAM, "reply_buffer");

    static final long AM_HANDLER_FIELD_MASK = offset(AM_HANDLER_PARAMS, "field_mask");
    static final long AM_HANDLER_ID = offset(AM_HANDLER_PARAMS, "id");
    static final long AM_HANDLER_FLAGS = offset(AM_HANDLER_PARAMS, "flags");
    static final long AM_HANDLER_CB = offset(AM_HANDLER_PARAMS, "cb");
    static final long AM_HANDLER_ARG = offset(AM_HANDLER_PARAMS, "arg");
}
