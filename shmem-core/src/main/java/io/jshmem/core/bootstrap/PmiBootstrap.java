/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.Log;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * What the PMI-2 and PMIx bootstraps share: the jshmem key-value semantics on top of a launcher's
 * store, abort, and the failure paths. No jshmem launcher process is involved: the launcher (srun,
 * mpirun) serves the interface.
 *
 * <p><b>Keys.</b> jshmem's {@link #get(String)} does not say which PE put a key, and PMI stores
 * are write-once with short keys (PMI-2: 64 characters), so values are stored under generated keys
 * {@code j<rank>.<epoch>.<i>} (the i-th put of that PE between two fences), and before each fence
 * every PE stores its directory {@code j<rank>.<epoch>.d}: the user keys it put, in order. A
 * {@code get} after the fence reads the directories of the epochs it has not seen (once), then the
 * value from the PE that put the key (the latest epoch wins; a PE may put a key again later).
 *
 * <p><b>Scale.</b> A key that names its owner, {@code <name>.<pe>} (every key the runtime uses:
 * {@code shm.3}, {@code ucx.addr.3}), is looked up in that PE's directories only: the epochs not
 * yet read for it, then the value, O(1) lookups per peer used, never N directories. Other keys
 * read every PE's directory once per epoch (O(N), for keys whose putter is unknown). Which PEs
 * share a node comes from the launcher's mapping ({@link #nodeIndexes()}), not from N keys.
 *
 * <p><b>Failures.</b> The launcher ends the job when a PE aborts (PMI2_Abort, PMIx_Abort). A PE
 * whose initializing thread dies of an uncaught exception before finalize aborts the job (as the
 * jshmem launcher does when a PE exits before finalize), naming the PE. SIGTERM/SIGINT (how
 * srun and mpirun end a job) become an abort notice first ({@link LauncherSignals}), so the
 * runtime's exit hook does not start a collective finalize that would wait for PEs being killed.
 *
 * <p><b>Re-initialization</b> (OpenSHMEM 1.6: init again after the last finalize). PMI has no second
 * init for a process, but its store takes new keys at any time and its fence is a plain job-wide
 * collective, so a re-initialization continues on the same session ({@link #reopen(long)}): its keys are
 * those of later epochs (never reused), and what earlier generations put is no longer visible to
 * {@link #get}. Every PE re-initializes (the spec makes it collective), so the PEs' fences stay in
 * step, even while some PE is still finishing the previous generation's finalize (which makes no
 * PMI call). The session is therefore left only at exit ({@code PMI2_Finalize} / {@code
 * PMIx_Finalize} in a shutdown hook), not at each finalize.
 */
abstract class PmiBootstrap implements Bootstrap {
    /** After asking the launcher to abort, how long to wait for it to end this process before halting. */
    static final long ABORT_WAIT_MILLIS = 5_000;

    /** Identity as the launcher gave it. */
    record Identity(int rank, int size, String nodeId, int localRank, int localSize, String jobId) {
    }

    private final Identity id;
    private final String launcher;

    /** Serializes calls into the PMI library (PMI-2's client is not thread-safe), except abort. */
    private final ReentrantLock pmi = new ReentrantLock();
    private int epoch;                                          // fences done; guarded by pmi
    private final List<String> pending = new ArrayList<>();      // keys put in this epoch; guarded by pmi
    private int directoriesRead;                                // epochs whose directories are read; guarded by pmi
    private int generation;                                     // re-initializations so far; guarded by pmi
    private int generationStart;                                // epoch of this generation's first fence; guarded by pmi
    private long reinitTimeoutNanos;                            // bound of that fence in a re-initialization; guarded by pmi
    private final Map<String, String> where = new HashMap<>();   // user key -> generated key; guarded by pmi
    private final Map<String, byte[]> cache = new HashMap<>();   // generated key -> value; guarded by pmi
    private long flagCalls;                                     // fenceFlagged calls; guarded by pmi
    private int[] ownerEpochsRead;                              // per PE, epochs whose directory is read; guarded by pmi
    /** Every PE's node index from the launcher, or null (set once by the subclass at creation). */
    private volatile int[] nodeIndexes;

    private final Object state = new Object();
    private String abortReason;                                             // guarded by state
    private final List<Consumer<String>> abortHandlers = new ArrayList<>(); // guarded by state

    private volatile boolean finalized;
    private volatile boolean closed;
    private volatile boolean released;
    /** The JVM is exiting: leave the launcher's interface at the next close() (guarded by pmi). */
    private boolean exiting;
    /** The shutdown hook that leaves the launcher's interface at exit, once registered (guarded by pmi). */
    private Thread exitHook;
    /** How long the exit hook waits for a PMI call in progress (a fence of a PE being killed, say). */
    private static final long EXIT_LOCK_WAIT_MILLIS = 1_000;

    PmiBootstrap(Identity id, String launcher) {
        this.id = id;
        this.launcher = launcher;
    }

    /** Installs the failure paths (call once the launcher interface is initialized). */
    final void armFailurePaths() {
        Thread creator = Thread.currentThread();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
            String reason = abortReason();
            if (reason != null && thread == creator && String.valueOf(error.getMessage()).contains(reason)) {
                // A consequence of the launcher ending the job, not a failure of this PE: one line, no trace.
                String m = error.getMessage();
                Log.BOOTSTRAP.error("jshmem: " + (m.startsWith("PE ") ? m : "PE " + id.rank() + ": " + m));
                return;
            }
            if (previous != null) {
                previous.uncaughtException(thread, error);
            } else {
                System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                error.printStackTrace();
            }
            if (thread == creator && !finalized && reason == null) {
                abort(1, "PE " + id.rank() + " failed before finalize: " + error);
            }
        });
        LauncherSignals.onTermination(this::aborted);
    }

    // ---------------------------------------------------------------- the launcher's interface

    /** Name of the interface for messages: "PMI-2", "PMIx". */
    abstract String interfaceName();

    /** Extra words for {@link #describe()}: the launcher's job id or namespace. */
    abstract String detail();

    /** Stores {@code value} under {@code key} (write-once) for the next fence. */
    abstract void storePut(String key, byte[] value);

    /** The launcher's fence: every PE's stored values become visible to every PE. */
    abstract void storeFence();

    /** The value {@code rank} stored under {@code key} before the last fence, or null. */
    abstract byte[] storeGet(int rank, String key);

    /** Asks the launcher to end the job; may not return. */
    abstract void nativeAbort(int status, String message);

    /** Leaves the launcher's interface (after finalize). */
    abstract void nativeFinalize();

    // ---------------------------------------------------------------- Bootstrap

    @Override
    public final int generation() {
        pmi.lock();
        try {
            return generation;
        } finally {
            pmi.unlock();
        }
    }

    /**
     * This session for the next initialization of jshmem, after the finalize of the previous one
     * (see the class comment): the keys of earlier generations are forgotten, their abort handlers
     * dropped.
     *
     * @throws IllegalStateException if the previous generation is not finalized, or the session ended
     */
    final PmiBootstrap reopen(long timeoutNanos) {
        pmi.lock();
        try {
            if (released) {
                throw new IllegalStateException("the " + interfaceName() + " session of PE " + id.rank() + " has ended");
            }
            if (!finalized || !closed) {
                throw new IllegalStateException("PE " + id.rank() + ": the previous initialization of jshmem is not finalized");
            }
            where.clear();
            cache.clear();
            directoriesRead = epoch; // earlier epochs' keys belong to earlier generations
            generation++;
            generationStart = epoch;
            reinitTimeoutNanos = timeoutNanos;
            finalized = false;
            closed = false;
        } finally {
            pmi.unlock();
        }
        synchronized (state) {
            abortHandlers.clear();
        }
        return this;
    }

    @Override
    public final int rank() {
        return id.rank();
    }

    @Override
    public final int size() {
        return id.size();
    }

    @Override
    public final String nodeId() {
        return id.nodeId();
    }

    @Override
    public final String jobId() {
        return id.jobId();
    }

    /** Index of this PE among the PEs on its node, as the launcher says. */
    public final int localRank() {
        return id.localRank();
    }

    /** Number of PEs on this PE's node, as the launcher says. */
    public final int localSize() {
        return id.localSize();
    }

    /** Who started this process ("srun --mpi=pmi2", "Open MPI mpirun"). */
    public final String launcher() {
        return launcher;
    }

    @Override
    public final void put(String key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (key.indexOf('\n') >= 0 || key.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("bootstrap key with a newline or NUL: " + key);
        }
        pmi.lock();
        try {
            throwIfClosed();
            storePut(valueKey(id.rank(), epoch, pending.size()), value);
            pending.add(key);
        } finally {
            pmi.unlock();
        }
    }

    @Override
    public final void fence() {
        pmi.lock();
        try {
            throwIfClosed();
            throwIfAborted();
            storePut(directoryKey(id.rank(), epoch), String.join("\n", pending).getBytes(StandardCharsets.UTF_8));
            pending.clear();
            if (generation > 0 && epoch == generationStart) {
                reinitFence();
            } else {
                storeFence();
            }
            epoch++;
        } finally {
            pmi.unlock();
        }
        throwIfAborted();
    }

    /**
     * {@inheritDoc} Here: a {@link #fence()}, then a dissemination of the lowest flagged PE over raw
     * store keys (one per PE and round, outside the epochs and their directories), ceil(log2 N)
     * store fences and one store lookup each: no PE reads N keys.
     */
    @Override
    public final int fenceFlagged(boolean flag) {
        fence();
        int known = flag ? id.rank() : Integer.MAX_VALUE;
        pmi.lock();
        try {
            throwIfClosed();
            long call = flagCalls++; // every PE makes the same calls: the keys agree
            int n = id.size();
            for (int distance = 1, round = 0; distance < n; distance <<= 1, round++) {
                storePut(flagKey(id.rank(), generation, call, round), Integer.toString(known).getBytes(StandardCharsets.UTF_8));
                storeFence();
                int from = Math.floorMod(id.rank() - distance, n);
                byte[] v = storeGet(from, flagKey(from, generation, call, round));
                if (v == null) {
                    throw new IllegalStateException("PE " + from + " stored no flag for round " + round + " of a flagged fence ("
                            + flagKey(from, generation, call, round) + ")");
                }
                known = Math.min(known, Integer.parseInt(new String(v, StandardCharsets.UTF_8)));
            }
        } finally {
            pmi.unlock();
        }
        throwIfAborted();
        return known == Integer.MAX_VALUE ? -1 : known;
    }

    static String flagKey(int rank, int generation, long call, int round) {
        return "j" + rank + ".f" + generation + "." + call + "." + round; // never an epoch number: no clash
    }

    /**
     * The first fence of a re-initialization, bounded: a PE that exited after its last finalize
     * never joins it, and neither PMI-2 nor (in every case) PMIx makes the others' fence fail, so
     * after {@code JSHMEM_PMI_REINIT_TIMEOUT} the job is aborted with a message that says so.
     */
    private void reinitFence() {
        long timeout = reinitTimeoutNanos;
        CountDownLatch done = new CountDownLatch(1);
        Thread watchdog = Thread.ofPlatform().daemon().name("jshmem-pmi-reinit-watchdog").start(() -> {
            try {
                if (done.await(timeout, TimeUnit.NANOSECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
            String message = "PE " + id.rank() + ": not every PE initialized jshmem again within " + timeout / 1_000_000_000L
                    + " s (JSHMEM_PMI_REINIT_TIMEOUT): a PE may have exited after its last finalize, which "
                    + interfaceName() + " does not report to the others";
            aborted(message); // this PE's abort handlers first (its new segment): the launcher may kill it at once
            abort(1, message);
        });
        try {
            storeFence();
        } finally {
            done.countDown();
        }
        try {
            watchdog.join(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public final byte[] get(String key) {
        pmi.lock();
        try {
            throwIfClosed();
            int owner = owner(key);
            if (owner >= 0) {
                readDirectoriesOf(owner);
            } else {
                readDirectories();
            }
            String generated = where.get(key);
            if (generated == null) {
                return null;
            }
            byte[] v = cache.get(generated);
            if (v == null) {
                int rank = Integer.parseInt(generated.substring(1, generated.indexOf('.')));
                v = storeGet(rank, generated);
                if (v == null) {
                    throw new IllegalStateException("PE " + rank + " listed bootstrap key \"" + key
                            + "\" but the launcher has no value for it (" + generated + ")");
                }
                cache.put(generated, v);
            }
            return v.clone();
        } finally {
            pmi.unlock();
        }
    }

    /** The PE a key names as its owner ({@code <name>.<pe>}), or -1. */
    private int owner(String key) {
        int dot = key.lastIndexOf('.');
        if (dot < 0 || dot == key.length() - 1 || key.length() - dot > 11) {
            return -1;
        }
        long pe = 0;
        for (int i = dot + 1; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            pe = pe * 10 + (c - '0');
        }
        return pe < id.size() ? (int) pe : -1;
    }

    /** Reads PE {@code r}'s directories of the epochs not yet read for it (O(epochs), not O(N)). */
    private void readDirectoriesOf(int r) {
        if (ownerEpochsRead == null) {
            ownerEpochsRead = new int[id.size()]; // one int per PE, made at the first owner lookup
        }
        for (int e = Math.max(ownerEpochsRead[r], directoriesRead); e < epoch; e++) {
            readDirectory(r, e);
        }
        ownerEpochsRead[r] = epoch;
    }

    private void readDirectories() {
        for (; directoriesRead < epoch; directoriesRead++) {
            int e = directoriesRead;
            for (int r = 0; r < id.size(); r++) {
                if (ownerEpochsRead != null && ownerEpochsRead[r] > e) {
                    continue; // read already by an owner lookup
                }
                readDirectory(r, e);
            }
        }
    }

    /** Reads PE {@code r}'s directory of epoch {@code e} into {@link #where}. */
    private void readDirectory(int r, int e) {
        byte[] dir = storeGet(r, directoryKey(r, e));
        if (dir == null) {
            throw new IllegalStateException("PE " + r + " stored no bootstrap directory for fence " + (e + 1)
                    + " (" + directoryKey(r, e) + ")");
        }
        if (dir.length == 0) {
            return;
        }
        String[] keys = new String(dir, StandardCharsets.UTF_8).split("\n", -1);
        for (int i = 0; i < keys.length; i++) {
            where.put(keys[i], valueKey(r, e, i)); // later epochs, then higher ranks, win
        }
    }

    /** Sets every PE's node index as the launcher gave it (call once, at creation). */
    final void nodeIndexes(int[] nodeOf) {
        this.nodeIndexes = nodeOf;
    }

    @Override
    public final int[] nodeIndexes() {
        return nodeIndexes;
    }

    static String valueKey(int rank, int epoch, int index) {
        return "j" + rank + "." + epoch + "." + index;
    }

    static String directoryKey(int rank, int epoch) {
        return "j" + rank + "." + epoch + ".d";
    }

    /** Prints why, asks the launcher to end the job, and halts with {@code status} if it did not. */
    @Override
    public final void abort(int status, String message) {
        Log.BOOTSTRAP.error("jshmem: " + message + "; ending the job through " + interfaceName() + " abort ("
                + launcher + ")");
        long deadline = System.nanoTime() + ABORT_WAIT_MILLIS * 1_000_000;
        Thread t = Thread.ofPlatform().daemon().name("jshmem-pmi-abort").start(() -> nativeAbort(status, message));
        try {
            t.join(ABORT_WAIT_MILLIS);
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left > 0) {
                Thread.sleep(left); // the launcher kills every PE, this one included
            }
        } catch (InterruptedException e) {
            // told to hurry: end this process at least
        }
        Runtime.getRuntime().halt(status);
    }

    @Override
    public final void finalized() {
        finalized = true;
    }

    @Override
    public final void onAbort(Consumer<String> handler) {
        Objects.requireNonNull(handler, "handler");
        String reason;
        synchronized (state) {
            abortHandlers.add(handler);
            reason = abortReason;
        }
        if (reason != null) {
            runHandler(handler, reason);
        }
    }

    /** Records the abort (first reason wins) and runs the handlers once. */
    final void aborted(String reason) {
        List<Consumer<String>> handlers;
        synchronized (state) {
            if (abortReason != null) {
                return;
            }
            abortReason = reason;
            handlers = List.copyOf(abortHandlers);
        }
        handlers.forEach(h -> runHandler(h, reason));
    }

    private static void runHandler(Consumer<String> handler, String reason) {
        try {
            handler.accept(reason);
        } catch (RuntimeException e) {
            Log.BOOTSTRAP.log(Level.ERROR, null, e);
        }
    }

    /** Why the job is being ended, or null (then a PE's failure is a consequence, not the cause). */
    private String abortReason() {
        synchronized (state) {
            return abortReason;
        }
    }

    private void throwIfAborted() {
        synchronized (state) {
            if (abortReason != null) {
                throw new IllegalStateException("jshmem job is ending: " + abortReason);
            }
        }
    }

    private void throwIfClosed() {
        if (closed) {
            throw new IllegalStateException("the " + interfaceName() + " bootstrap is closed");
        }
    }

    @Override
    public final String describe() {
        return interfaceName() + " (" + launcher + ", " + detail() + ", node " + id.nodeId() + ": local PE "
                + id.localRank() + " of " + id.localSize() + ")";
    }

    /**
     * After {@link #finalized()}: keeps the session for a re-initialization ({@link #reopen(long)}) and
     * leaves the launcher's interface at exit (at once if the JVM is exiting already). Before
     * (initialization failed): stays connected, so that the failure can still end the job through abort.
     */
    @Override
    public final void close() {
        closed = true;
        if (!finalized) {
            return;
        }
        pmi.lock();
        try {
            if (!released && (exiting || !leaveAtExit())) {
                released = true;
                nativeFinalize();
            }
        } finally {
            pmi.unlock();
        }
    }

    /** Registers (once) the exit hook that leaves the launcher's interface; false if the JVM is exiting already. */
    private boolean leaveAtExit() {
        if (exitHook != null) {
            return true;
        }
        Thread hook = new Thread(this::releaseAtExit, "jshmem-pmi-finalize");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException e) {
            return false;
        }
        exitHook = hook;
        return true;
    }

    /** The exit hook: leaves the interface if no generation is active; else that generation's close() will. */
    private void releaseAtExit() {
        try {
            if (!pmi.tryLock(EXIT_LOCK_WAIT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                return; // a PMI call is stuck (the job is being ended): exit anyway
            }
        } catch (InterruptedException e) {
            return;
        }
        try {
            exiting = true;
            if (!released && finalized && closed) {
                released = true;
                nativeFinalize();
            }
        } finally {
            pmi.unlock();
        }
    }

    /** Makes a job id from the launcher's words: [A-Za-z0-9._-] only (it names shared-memory files). */
    static String fileSafe(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
