/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

/**
 * The PMIx 4.x ABI pieces jshmem uses, laid out by hand (PMIx's value and info helpers are macros
 * or inline functions, so only structs and constants are needed). Checked against
 * {@code /usr/lib/x86_64-linux-gnu/pmix2/include} (libpmix-dev 4.2.2, LP64) by
 * {@code PmixLayoutTest}, which compiles a C printer of these numbers when a compiler and the headers
 * are installed.
 */
final class PmixLayout {
    private PmixLayout() {
    }

    // pmix_proc_t { char nspace[PMIX_MAX_NSLEN+1]; pmix_rank_t rank; }
    static final long PROC_SIZE = 260;
    static final long PROC_ALIGN = 4;
    static final long PROC_NSPACE = 0;
    static final long PROC_RANK = 256;
    static final int MAX_NSLEN = 255;

    // pmix_value_t { pmix_data_type_t type (uint16); union { ... } data; }
    static final long VALUE_SIZE = 32;
    static final long VALUE_ALIGN = 8;
    static final long VALUE_TYPE = 0;
    static final long VALUE_DATA = 8;
    /** pmix_byte_object_t { char *bytes; size_t size; } inside the union. */
    static final long VALUE_BO_BYTES = 8;
    static final long VALUE_BO_SIZE = 16;

    // pmix_info_t { pmix_key_t key (char[512]); pmix_info_directives_t flags; pmix_value_t value; }
    static final long INFO_SIZE = 552;
    static final long INFO_ALIGN = 8;

    // pmix_data_type_t
    static final short BOOL = 1;
    static final short BYTE = 2;
    static final short STRING = 3;
    static final short SIZE = 4;
    static final short PID = 5;
    static final short INT = 6;
    static final short INT8 = 7;
    static final short INT16 = 8;
    static final short INT32 = 9;
    static final short INT64 = 10;
    static final short UINT = 11;
    static final short UINT8 = 12;
    static final short UINT16 = 13;
    static final short UINT32 = 14;
    static final short UINT64 = 15;
    static final short BYTE_OBJECT = 27;
    static final short PROC_RANK_TYPE = 40;

    /** pmix_scope_t PMIX_GLOBAL: share with all processes, on this node and others. */
    static final byte GLOBAL = 3;
    static final int SUCCESS = 0;
    static final int ERR_NOT_FOUND = -46;
    /** pmix_rank_t PMIX_RANK_WILDCARD (UINT32_MAX - 1): job-level information. */
    static final int RANK_WILDCARD = 0xFFFFFFFE;

    // Attribute keys (pmix_common.h)
    static final String JOB_SIZE = "pmix.job.size";
    static final String LOCAL_RANK = "pmix.lrank";
    static final String LOCAL_SIZE = "pmix.local.size";
    static final String LOCAL_PEERS = "pmix.lpeers";
    static final String NODEID = "pmix.nodeid";
    static final String HOSTNAME = "pmix.hname";
    static final String COLLECT_DATA = "pmix.collect";
}
