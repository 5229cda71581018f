/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A PE's UCP context and the symmetric heap's registration on it ({@code ucp_mem_map}): made first
 * at wire-up, every {@link Channel}'s worker is made on it, so it is closed last, once every
 * channel is released (their endpoints may still reach the registered heap until then). Closed by
 * its owner: {@link WireUp} while set-up fails, then the PE's {@link UcxTransport}.
 */
final class UcpContext {
    /** The context; NULL once closed. */
    private MemorySegment handle;
    /** The heap's registration; NULL until {@link #mapHeap}, and once closed. */
    private MemorySegment memh = MemorySegment.NULL;
    /** UCX_NET_DEVICES this context was made with (JSHMEM_UCX_LISTEN), or null: UCX's choice. */
    final String netDevices;

    private UcpContext(MemorySegment handle, String netDevices) {
        this.handle = handle;
        this.netDevices = netDevices;
    }

    /**
     * {@code ucp_init} with the features jshmem uses, named after the PE, its TCP listeners
     * restricted to {@code netDevices} (unless null); nothing to release when it fails.
     */
    static UcpContext open(UcxJob job, String netDevices) {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment params = tmp.allocate(UcpAbi.PARAMS);
            params.set(JAVA_LONG, UcpAbi.PARAMS_FIELD_MASK, UcpAbi.UCP_PARAM_FIELD_FEATURES | UcpAbi.UCP_PARAM_FIELD_ESTIMATED_NUM_EPS
                    | UcpAbi.UCP_PARAM_FIELD_NAME);
            params.set(JAVA_LONG, UcpAbi.PARAMS_FEATURES, UcpAbi.UCP_FEATURE_RMA | UcpAbi.UCP_FEATURE_AMO64 | UcpAbi.UCP_FEATURE_AMO32
                    | UcpAbi.UCP_FEATURE_WAKEUP | UcpAbi.UCP_FEATURE_AM);
            params.set(JAVA_LONG, UcpAbi.PARAMS_ESTIMATED_NUM_EPS, job.npes);
            params.set(ADDRESS, UcpAbi.PARAMS_NAME, job.arena.allocateFrom("jshmem-pe" + job.me));
            MemorySegment out = tmp.allocate(ADDRESS);
            job.check(Ucp.configRead(out), "ucp_config_read (check the UCX_* environment variables)");
            MemorySegment config = out.get(ADDRESS, 0);
            byte st;
            try {
                if (netDevices != null) {
                    job.check(Ucp.configModify(config, "NET_DEVICES", netDevices),
                            "UCX_NET_DEVICES=" + netDevices + " (from JSHMEM_UCX_LISTEN=" + job.settings.ucxListen() + ")");
                }
                st = Ucp.init(params, config, out);
            } finally {
                Ucp.configRelease(config);
            }
            job.check(st, "ucp_init (no usable UCX transport? check UCX_TLS and UCX_NET_DEVICES"
                    + (netDevices != null ? "; the listeners were restricted to " + netDevices + " (JSHMEM_UCX_LISTEN)" : "")
                    + ")");
            return new UcpContext(out.get(ADDRESS, 0), netDevices);
        }
    }

    /** The context, for making workers and asking what it offers; NULL once closed. */
    MemorySegment handle() {
        return handle;
    }

    /** The heap's registration; NULL before {@link #mapHeap} and once closed. */
    MemorySegment memh() {
        return memh;
    }

    /** Registers {@code heap} for remote reads and writes (once, at wire-up); returns its packed memory key, for the peers. */
    byte[] mapHeap(UcxJob job, MemorySegment heap) {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment mparams = tmp.allocate(UcpAbi.MEM_MAP_PARAMS);
            mparams.set(JAVA_LONG, UcpAbi.MEM_MAP_FIELD_MASK, UcpAbi.UCP_MEM_MAP_PARAM_FIELD_ADDRESS
                    | UcpAbi.UCP_MEM_MAP_PARAM_FIELD_LENGTH | UcpAbi.UCP_MEM_MAP_PARAM_FIELD_PROT);
            mparams.set(ADDRESS, UcpAbi.MEM_MAP_ADDRESS, heap);
            mparams.set(JAVA_LONG, UcpAbi.MEM_MAP_LENGTH, heap.byteSize());
            mparams.set(JAVA_INT, UcpAbi.MEM_MAP_PROT, UcpAbi.UCP_MEM_MAP_PROT_LOCAL_READ | UcpAbi.UCP_MEM_MAP_PROT_LOCAL_WRITE
                    | UcpAbi.UCP_MEM_MAP_PROT_REMOTE_READ | UcpAbi.UCP_MEM_MAP_PROT_REMOTE_WRITE);
            MemorySegment out = tmp.allocate(ADDRESS);
            job.check(Ucp.memMap(handle, mparams, out), "ucp_mem_map of the symmetric heap (" + heap.byteSize() + " bytes)");
            memh = out.get(ADDRESS, 0);
            MemorySegment len = tmp.allocate(JAVA_LONG);
            job.check(Ucp.rkeyPack(handle, memh, out, len), "ucp_rkey_pack");
            MemorySegment rkeyBuffer = out.get(ADDRESS, 0);
            byte[] rkey = rkeyBuffer.reinterpret(len.get(JAVA_LONG, 0)).toArray(JAVA_BYTE);
            Ucp.rkeyBufferRelease(rkeyBuffer);
            return rkey;
        }
    }

    /** Unregisters the heap and cleans the context up; after every channel is released. Idempotent. */
    void close() {
        if (!memh.equals(MemorySegment.NULL)) {
            Ucp.memUnmap(handle, memh);
            memh = MemorySegment.NULL;
        }
        if (!handle.equals(MemorySegment.NULL)) {
            Ucp.cleanup(handle);
            handle = MemorySegment.NULL;
        }
    }
}
