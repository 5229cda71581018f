/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.NativeLibrary;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

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
import java.util.regex.Pattern;

/**
 * Bootstrap through PMI-2, as {@code srun --mpi=pmi2} serves it, called through {@code java.lang.foreign}
 * on Slurm's client library {@code libpmi2.so.0} (Debian {@code libpmi2-0}).
 *
 * <p>Rank and size come from {@code PMI2_Init}; the node of every rank from the job attribute
 * {@code PMI_process_mapping} (the launcher's node numbering: two slurmd "nodes" on one machine
 * are two nodes); the job id from {@code PMI2_Job_GetId}. Values are strings of at most
 * {@value #MAX_VALLEN} bytes: byte values are stored base64-encoded in chunks ({@link PmiValues}).
 * {@code PMI2_Abort(1, msg)} ends the whole step (PMI-2's abort carries no exit status: srun
 * reports the killed tasks, and exits with 137, whatever status globalExit was given). The PMI-2
 * client is not thread-safe: {@link PmiBootstrap} serializes calls.
 */
final class Pmi2Bootstrap extends PmiBootstrap {
    /** From pmi2.h. */
    static final int MAX_KEYLEN = 64;
    static final int MAX_VALLEN = 1024;
    static final int MAX_ATTRVALUE = 1024;
    static final int SUCCESS = 0;

    /** Environment variable naming the library's path, to override the search. */
    static final String LIBRARY_VAR = Setting.JSHMEM_PMI2_LIBRARY.key();
    static final String INSTALL_HINT = "install Slurm's PMI-2 client library (Debian/Ubuntu: apt-get install libpmi2-0;"
            + " RHEL/Fedora: slurm-libpmi) on every node, or use srun --mpi=pmix";

    private static final Pattern SLURM_STEP = Pattern.compile("\\d+\\.\\d+");

    private final MethodHandle kvsPut;
    private final MethodHandle kvsFence;
    private final MethodHandle kvsGet;
    private final MethodHandle abortCall;
    private final MethodHandle finalizeCall;
    private final String pmiJobId;

    private Pmi2Bootstrap(Identity id, String launcher, NativeLibrary lib, String pmiJobId) {
        super(id, launcher);
        this.pmiJobId = pmiJobId;
        this.kvsPut = lib.function("PMI2_KVS_Put", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        this.kvsFence = lib.function("PMI2_KVS_Fence", FunctionDescriptor.of(JAVA_INT));
        this.kvsGet = lib.function("PMI2_KVS_Get",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
        this.abortCall = lib.function("PMI2_Abort", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        this.finalizeCall = lib.function("PMI2_Finalize", FunctionDescriptor.of(JAVA_INT));
    }

    /**
     * Initializes PMI-2 for this process.
     *
     * @throws ShmemException if the library is missing or the launcher refuses, naming the fix
     */
    static Pmi2Bootstrap create(Map<String, String> env, String launcher) {
        NativeLibrary lib = NativeLibrary.load(Config.Network.fromEnvironment(env).pmi2Library(), LIBRARY_VAR, List.of("libpmi2.so.0", "libpmi2.so"),
                "launched by " + launcher + " (PMI_FD is set), which needs PMI-2", INSTALL_HINT);
        MethodHandle init = lib.function("PMI2_Init", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
        MethodHandle getId = lib.function("PMI2_Job_GetId", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        MethodHandle jobAttr = lib.function("PMI2_Info_GetJobAttr",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
        int size;
        int rank;
        String pmiJob;
        String mapping;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment spawned = a.allocate(JAVA_INT);
            MemorySegment sizeOut = a.allocate(JAVA_INT);
            MemorySegment rankOut = a.allocate(JAVA_INT);
            MemorySegment appnum = a.allocate(JAVA_INT);
            int rc = (int) init.invokeExact(spawned, sizeOut, rankOut, appnum);
            if (rc != SUCCESS) {
                throw new ShmemException("PMI2_Init failed (error " + rc + ") under " + launcher
                        + ": is this process really an srun task with --mpi=pmi2 (PMI_FD=" + env.get("PMI_FD") + ")?");
            }
            size = sizeOut.get(JAVA_INT, 0);
            rank = rankOut.get(JAVA_INT, 0);
            MemorySegment buf = a.allocate(MAX_ATTRVALUE);
            rc = (int) getId.invokeExact(buf, MAX_ATTRVALUE);
            pmiJob = rc == SUCCESS ? buf.getString(0) : "";
            MemorySegment found = a.allocate(JAVA_INT);
            buf.fill((byte) 0);
            rc = (int) jobAttr.invokeExact(a.allocateFrom("PMI_process_mapping"), buf, MAX_ATTRVALUE, found);
            mapping = rc == SUCCESS && found.get(JAVA_INT, 0) != 0 ? buf.getString(0) : null;
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
        Identity id = identity(rank, size, pmiJob, mapping, env);
        Pmi2Bootstrap b = new Pmi2Bootstrap(id, launcher, lib, pmiJob);
        if (mapping != null) {
            b.nodeIndexes(ProcessMapping.nodeOfRanks(mapping, size)); // parsed by identity() already
        }
        b.armFailurePaths();
        return b;
    }

    /** Rank, size, node and job from what PMI-2 said (visible for the tests). */
    static Identity identity(int rank, int size, String pmiJob, String mapping, Map<String, String> env) {
        if (size < 1 || rank < 0 || rank >= size) {
            throw new ShmemException("PMI-2 gave rank " + rank + " of " + size);
        }
        String nodeId;
        int localRank;
        int localSize;
        if (mapping != null) {
            int[] nodeOf;
            try {
                nodeOf = ProcessMapping.nodeOfRanks(mapping, size);
            } catch (IllegalArgumentException e) {
                throw new ShmemException("PE " + rank + ": " + e.getMessage());
            }
            int me = nodeOf[rank];
            nodeId = "n" + me;
            localRank = 0;
            localSize = 0;
            for (int r = 0; r < size; r++) {
                if (nodeOf[r] == me) {
                    localSize++;
                    localRank += r < rank ? 1 : 0;
                }
            }
        } else {
            // No mapping: the node's name as the launcher's daemon gave it.
            String node = env.get("SLURMD_NODENAME");
            if (node == null || node.isBlank()) {
                throw new ShmemException("PE " + rank + ": the PMI-2 launcher gives no PMI_process_mapping and no"
                        + " SLURMD_NODENAME: cannot tell which PEs share a node");
            }
            nodeId = "h" + fileSafe(node);
            localRank = intOr(env.get("SLURM_LOCALID"), -1);
            localSize = -1;
        }
        String jobId;
        if (SLURM_STEP.matcher(pmiJob).matches()) {
            jobId = "slurm" + pmiJob; // as the fork-safety guard names Slurm steps: <job>.<step>
        } else if (!pmiJob.isBlank()) {
            jobId = "pmi2-" + fileSafe(pmiJob);
        } else {
            throw new ShmemException("PE " + rank + ": PMI2_Job_GetId gave no job id");
        }
        return new Identity(rank, size, nodeId, localRank, localSize, jobId);
    }

    private static int intOr(String s, int otherwise) {
        try {
            return s == null ? otherwise : Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    @Override
    String interfaceName() {
        return "PMI-2";
    }

    @Override
    String detail() {
        return "job " + pmiJobId;
    }

    @Override
    void storePut(String key, byte[] value) {
        List<String> chunks = PmiValues.encode(value);
        try (Arena a = Arena.ofConfined()) {
            for (int i = 0; i < chunks.size(); i++) {
                String k = PmiValues.chunkKey(key, i);
                int rc = (int) kvsPut.invokeExact(a.allocateFrom(k), a.allocateFrom(chunks.get(i)));
                if (rc != SUCCESS) {
                    throw new IllegalStateException("PE " + rank() + ": PMI2_KVS_Put(" + k + ") failed (error " + rc + ")");
                }
            }
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    @Override
    void storeFence() {
        int rc;
        try {
            rc = (int) kvsFence.invokeExact();
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
        if (rc != SUCCESS) {
            throw new IllegalStateException("PE " + rank() + ": PMI2_KVS_Fence failed (error " + rc
                    + "): the launcher is gone or ending the job");
        }
    }

    @Override
    byte[] storeGet(int rank, String key) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment jobid = a.allocateFrom(pmiJobId);
            MemorySegment buf = a.allocate(MAX_VALLEN + 1);
            MemorySegment len = a.allocate(JAVA_INT);
            String first = get(jobid, rank, a.allocateFrom(key), buf, len);
            if (first == null) {
                return null;
            }
            int n = PmiValues.chunkCount(first);
            List<String> chunks = new ArrayList<>(n);
            chunks.add(first);
            for (int i = 1; i < n; i++) {
                String c = get(jobid, rank, a.allocateFrom(PmiValues.chunkKey(key, i)), buf, len);
                if (c == null) {
                    throw new IllegalStateException("PE " + rank() + ": chunk " + i + " of " + n + " of PMI-2 value "
                            + key + " is missing");
                }
                chunks.add(c);
            }
            return PmiValues.decode(chunks);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private String get(MemorySegment jobid, int rank, MemorySegment key, MemorySegment buf, MemorySegment len)
            throws Throwable {
        buf.fill((byte) 0);
        int rc = (int) kvsGet.invokeExact(jobid, rank, key, buf, MAX_VALLEN, len);
        if (rc != SUCCESS) {
            return null;
        }
        return buf.getString(0, StandardCharsets.UTF_8);
    }

    @Override
    void nativeAbort(int status, String message) {
        // PMI-2's wire protocol separates fields with ';' and ends commands with '\n'.
        String m = message.replace(';', ',').replace('\n', ' ');
        if (m.length() > 500) {
            m = m.substring(0, 500);
        }
        try (Arena a = Arena.ofConfined()) {
            int rc = (int) abortCall.invokeExact(1, a.allocateFrom(m));
        } catch (Throwable t) {
            // nothing else to try: the caller halts
        }
    }

    @Override
    void nativeFinalize() {
        try {
            int rc = (int) finalizeCall.invokeExact();
        } catch (Throwable t) {
            // leaving anyway
        }
    }
}
