/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.NativeLibrary;
import static io.jshmem.core.bootstrap.PmixLayout.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.jshmem.ShmemException;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.Setting;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bootstrap through PMIx, as {@code srun --mpi=pmix} and Open MPI's {@code mpirun} serve it, called
 * through {@code java.lang.foreign} on {@code libpmix.so.2} (Debian {@code libpmix2}, PMIx 4.x).
 *
 * <p>Rank and namespace come from {@code PMIx_Init}; size from {@code pmix.job.size}; node identity
 * from {@code pmix.nodeid}, else from the set of ranks on the node ({@code pmix.lpeers}: its lowest
 * rank names the node); local rank from {@code pmix.lrank}. Values are byte objects
 * ({@code PMIx_Put(PMIX_GLOBAL)}), {@code PMIx_Commit} and {@code PMIx_Fence} with
 * {@code pmix.collect} make them visible everywhere; {@code PMIx_Abort} ends the job. The structs
 * are laid out by hand ({@link PmixLayout}).
 */
@SuppressWarnings("restricted") // values PMIx returns are read at their documented sizes
final class PmixBootstrap extends PmiBootstrap {
    static final String LIBRARY_VAR = Setting.JSHMEM_PMIX_LIBRARY.key();
    static final String INSTALL_HINT = "install the PMIx client library (Debian/Ubuntu: apt-get install libpmix2;"
            + " RHEL/Fedora: pmix) on every node, or use srun --mpi=pmi2 under Slurm";

    private static final Pattern SLURM_NSPACE = Pattern.compile("slurm\\.pmix\\.(\\d+)\\.(\\d+)");

    private final Handles h;
    private final String nspace;
    private final String version;

    private PmixBootstrap(Handles h, Identity id, String launcher, String nspace, String version) {
        super(id, launcher);
        this.h = h;
        this.nspace = nspace;
        this.version = version;
    }

    /** The downcalls. */
    private record Handles(MethodHandle init, MethodHandle put, MethodHandle commit, MethodHandle fence,
                           MethodHandle get, MethodHandle abort, MethodHandle fin, MethodHandle infoLoad,
                           MethodHandle valueDestruct, MethodHandle errorString, MethodHandle version,
                           MethodHandle free) {
        static Handles of(NativeLibrary lib) {
            return new Handles(
                    lib.function("PMIx_Init", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG)),
                    lib.function("PMIx_Put", FunctionDescriptor.of(JAVA_INT, JAVA_BYTE, ADDRESS, ADDRESS)),
                    lib.function("PMIx_Commit", FunctionDescriptor.of(JAVA_INT)),
                    lib.function("PMIx_Fence", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG)),
                    lib.function("PMIx_Get", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS)),
                    lib.function("PMIx_Abort", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG)),
                    lib.function("PMIx_Finalize", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG)),
                    lib.function("PMIx_Info_load", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_SHORT)),
                    lib.function("PMIx_Value_destruct", FunctionDescriptor.ofVoid(ADDRESS)),
                    lib.function("PMIx_Error_string", FunctionDescriptor.of(ADDRESS, JAVA_INT)),
                    lib.function("PMIx_Get_version", FunctionDescriptor.of(ADDRESS)),
                    NativeLibrary.libc("free", FunctionDescriptor.ofVoid(ADDRESS)));
        }
    }

    /**
     * Initializes PMIx for this process.
     *
     * @throws ShmemException if the library is missing or the server refuses, naming the fix
     */
    static PmixBootstrap create(Map<String, String> env, String launcher) {
        NativeLibrary lib = NativeLibrary.load(Config.Network.fromEnvironment(env).pmixLibrary(), LIBRARY_VAR, List.of("libpmix.so.2", "libpmix.so"),
                "launched by " + launcher + " (PMIX_NAMESPACE is set), which needs PMIx", INSTALL_HINT);
        Handles h = Handles.of(lib);
        try {
            String version = ((MemorySegment) h.version.invokeExact()).reinterpret(256).getString(0);
            MemorySegment me = Arena.global().allocate(PROC_SIZE, PROC_ALIGN);
            int rc = (int) h.init.invokeExact(me, MemorySegment.NULL, 0L);
            if (rc != SUCCESS) {
                throw new ShmemException("PMIx_Init failed under " + launcher + ": " + errorString(h, rc)
                        + " (PMIX_SERVER_URI41=" + env.get("PMIX_SERVER_URI41") + ")");
            }
            String nspace = me.getString(PROC_NSPACE);
            int rank = me.get(JAVA_INT, PROC_RANK);
            Reader r = new Reader(h, nspace);
            long size = r.integer(RANK_WILDCARD, JOB_SIZE);
            if (size < 1) {
                throw new ShmemException("PE " + rank + ": the PMIx server (" + launcher + ") gives no " + JOB_SIZE);
            }
            long nodeIndex = r.integer(rank, NODEID);
            String peers = r.string(RANK_WILDCARD, LOCAL_PEERS);
            long localRank = r.integer(rank, LOCAL_RANK);
            Identity id = identity(rank, (int) size, nodeIndex, peers, localRank, nspace);
            PmixBootstrap b = new PmixBootstrap(h, id, launcher, nspace, version);
            b.nodeIndexes(nodeIndexes(r, (int) size));
            b.armFailurePaths();
            return b;
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    /**
     * Every rank's {@code PMIX_NODEID}, or null if the server does not give one for some rank. Job-level
     * information the PMIx client already holds (no message to anyone): one int per PE.
     */
    private static int[] nodeIndexes(Reader r, int size) throws Throwable {
        int[] nodeOf = new int[size];
        for (int rank = 0; rank < size; rank++) {
            long node = r.integer(rank, NODEID);
            if (node < 0 || node > Integer.MAX_VALUE) {
                return null;
            }
            nodeOf[rank] = (int) node;
        }
        return nodeOf;
    }

    /** Identity from what PMIx said; -1 / null for what it did not (visible for the tests). */
    static Identity identity(int rank, int size, long nodeIndex, String localPeers, long localRank, String nspace) {
        if (rank < 0 || rank >= size) {
            throw new ShmemException("PMIx gave rank " + rank + " of " + size);
        }
        List<Integer> peers = new ArrayList<>();
        if (localPeers != null) {
            for (String p : localPeers.split(",")) {
                if (!p.isBlank()) {
                    try {
                        peers.add(Integer.parseInt(p.strip()));
                    } catch (NumberFormatException e) {
                        throw new ShmemException("PE " + rank + ": garbled " + LOCAL_PEERS + " \"" + localPeers + "\"");
                    }
                }
            }
        }
        String nodeId;
        if (nodeIndex >= 0) {
            nodeId = "n" + nodeIndex;
        } else if (!peers.isEmpty()) {
            nodeId = "p" + peers.stream().mapToInt(Integer::intValue).min().getAsInt();
        } else {
            throw new ShmemException("PE " + rank + ": the PMIx server gives neither " + NODEID + " nor " + LOCAL_PEERS
                    + ": cannot tell which PEs share a node");
        }
        int lrank = localRank >= 0 ? (int) localRank : peers.indexOf(rank);
        int lsize = peers.isEmpty() ? -1 : peers.size();
        Matcher m = SLURM_NSPACE.matcher(nspace);
        String jobId = m.matches() ? "slurm" + m.group(1) + "." + m.group(2) : "pmix-" + fileSafe(nspace);
        return new Identity(rank, size, nodeId, lrank, lsize, jobId);
    }

    /** PMIx_Get of launcher-provided information. */
    private record Reader(Handles h, String nspace) {
        /** The integer value of {@code key} for {@code rank}, or -1 if the server has none. */
        long integer(int rank, String key) throws Throwable {
            Object v = get(rank, key);
            return v instanceof Long l ? l : -1;
        }

        /** The string value of {@code key} for {@code rank}, or null. */
        String string(int rank, String key) throws Throwable {
            Object v = get(rank, key);
            return v instanceof String s ? s : null;
        }

        Object get(int rank, String key) throws Throwable {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment proc = proc(a, nspace, rank);
                MemorySegment out = a.allocate(ADDRESS);
                int rc = (int) h.get.invokeExact(proc, a.allocateFrom(key), MemorySegment.NULL, 0L, out);
                if (rc != SUCCESS) {
                    return null;
                }
                MemorySegment value = out.get(ADDRESS, 0).reinterpret(VALUE_SIZE);
                try {
                    return decode(value);
                } finally {
                    h.valueDestruct.invokeExact(value);
                    h.free.invokeExact(value);
                }
            }
        }
    }

    /** A Long for integer types, a String, a byte[] for byte objects, else null. */
    static Object decode(MemorySegment value) {
        short type = value.get(JAVA_SHORT, VALUE_TYPE);
        long d = VALUE_DATA;
        return switch (type) {
            case BOOL, BYTE, UINT8 -> (long) Byte.toUnsignedInt(value.get(JAVA_BYTE, d));
            case INT8 -> (long) value.get(JAVA_BYTE, d);
            case INT16 -> (long) value.get(JAVA_SHORT, d);
            case UINT16 -> (long) Short.toUnsignedInt(value.get(JAVA_SHORT, d));
            case INT, INT32, PID -> (long) value.get(JAVA_INT, d);
            case UINT, UINT32, PROC_RANK_TYPE -> Integer.toUnsignedLong(value.get(JAVA_INT, d));
            case SIZE, INT64, UINT64 -> value.get(JAVA_LONG, d);
            case STRING -> {
                MemorySegment s = value.get(ADDRESS, d);
                yield s.equals(MemorySegment.NULL) ? null : s.reinterpret(Long.MAX_VALUE).getString(0);
            }
            case BYTE_OBJECT -> {
                MemorySegment bytes = value.get(ADDRESS, VALUE_BO_BYTES);
                long n = value.get(JAVA_LONG, VALUE_BO_SIZE);
                yield n == 0 || bytes.equals(MemorySegment.NULL) ? new byte[0] : bytes.reinterpret(n).toArray(JAVA_BYTE);
            }
            default -> null;
        };
    }

    static MemorySegment proc(Arena a, String nspace, int rank) {
        MemorySegment p = a.allocate(PROC_SIZE, PROC_ALIGN);
        byte[] ns = nspace.getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(ns, 0, p, JAVA_BYTE, PROC_NSPACE, Math.min(ns.length, MAX_NSLEN));
        p.set(JAVA_INT, PROC_RANK, rank);
        return p;
    }

    private static String errorString(Handles h, int rc) {
        try {
            MemorySegment s = (MemorySegment) h.errorString.invokeExact(rc);
            return (s.equals(MemorySegment.NULL) ? "error" : s.reinterpret(256).getString(0)) + " (" + rc + ")";
        } catch (Throwable t) {
            return "error " + rc;
        }
    }

    private String error(int rc) {
        return errorString(h, rc);
    }

    @Override
    String interfaceName() {
        return "PMIx";
    }

    @Override
    String detail() {
        int paren = version.indexOf(" (");
        return (paren > 0 ? version.substring(0, paren) : version) + ", namespace " + nspace;
    }

    @Override
    void storePut(String key, byte[] value) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(VALUE_SIZE, VALUE_ALIGN);
            MemorySegment bytes = a.allocate(Math.max(1, value.length));
            MemorySegment.copy(value, 0, bytes, JAVA_BYTE, 0, value.length);
            v.set(JAVA_SHORT, VALUE_TYPE, BYTE_OBJECT);
            v.set(ADDRESS, VALUE_BO_BYTES, bytes);
            v.set(JAVA_LONG, VALUE_BO_SIZE, value.length);
            int rc = (int) h.put.invokeExact(GLOBAL, a.allocateFrom(key), v); // PMIx_Put copies the value
            if (rc != SUCCESS) {
                throw new IllegalStateException("PE " + rank() + ": PMIx_Put(" + key + ") failed: " + error(rc));
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    @Override
    void storeFence() {
        try (Arena a = Arena.ofConfined()) {
            int rc = (int) h.commit.invokeExact();
            if (rc != SUCCESS) {
                throw new IllegalStateException("PE " + rank() + ": PMIx_Commit failed: " + error(rc));
            }
            MemorySegment info = a.allocate(INFO_SIZE, INFO_ALIGN);
            MemorySegment flag = a.allocate(JAVA_BYTE);
            // With data collection: every node's PMIx server gets every value at the fence (its
            // business, not the JVM's; PMIx_Get of a peer's key is then local). Without it ("direct
            // modex"), Slurm 22.05's PMIx plugin answers a peer's key committed after an earlier
            // fence with not-found, even with PMIX_GET_REFRESH_CACHE: the server caches a peer's data.
            flag.set(JAVA_BYTE, 0, (byte) 1);
            rc = (int) h.infoLoad.invokeExact(info, a.allocateFrom(COLLECT_DATA), flag, BOOL);
            if (rc != SUCCESS) {
                throw new IllegalStateException("PE " + rank() + ": PMIx_Info_load failed: " + error(rc));
            }
            rc = (int) h.fence.invokeExact(MemorySegment.NULL, 0L, info, 1L);
            if (rc != SUCCESS) {
                throw new IllegalStateException("PE " + rank() + ": PMIx_Fence failed: " + error(rc)
                        + ": the launcher is gone or ending the job");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    @Override
    byte[] storeGet(int rank, String key) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            int rc = (int) h.get.invokeExact(proc(a, nspace, rank), a.allocateFrom(key), MemorySegment.NULL, 0L, out);
            if (rc != SUCCESS) {
                return null;
            }
            MemorySegment value = out.get(ADDRESS, 0).reinterpret(VALUE_SIZE);
            try {
                Object v = decode(value);
                if (!(v instanceof byte[] bytes)) {
                    throw new IllegalStateException("PE " + rank() + ": PMIx value " + key + " of PE " + rank
                            + " is not a byte object (type " + value.get(JAVA_SHORT, VALUE_TYPE) + ")");
                }
                return bytes;
            } finally {
                h.valueDestruct.invokeExact(value);
                h.free.invokeExact(value);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    @Override
    void nativeAbort(int status, String message) {
        try (Arena a = Arena.ofConfined()) {
            int rc = (int) h.abort.invokeExact(status, a.allocateFrom(message), MemorySegment.NULL, 0L);
        } catch (Throwable t) {
            // nothing else to try: the caller halts
        }
    }

    @Override
    void nativeFinalize() {
        try {
            int rc = (int) h.fin.invokeExact(MemorySegment.NULL, 0L);
        } catch (Throwable t) {
            // leaving anyway
        }
    }
}
