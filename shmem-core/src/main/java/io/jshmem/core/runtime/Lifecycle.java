/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.ForkSafetyReport;
import io.jshmem.JobAbortedException;
import io.jshmem.ShmemException;
import io.jshmem.ShmemVersion;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.ExitStatus;
import io.jshmem.core.base.Flight;
import io.jshmem.core.base.Log;
import io.jshmem.core.base.ProcFs;
import io.jshmem.core.base.Settings;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.comm.OpenContext;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.forksafety.ForkSafety;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.team.TeamImpl;
import io.jshmem.core.team.TeamRegistry;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.System.Logger.Level;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.Recording;

/**
 * The life cycle of one initialized PE: init (the flight recording, the heap, the transport, the
 * start-up report), finalize (explicit, failing, implicit at exit), the failure handler that
 * ends the job when the initializing thread dies, and globalExit.
 */
final class Lifecycle {
    private final PeState st;
    private final TeamRegistry teams;
    private final SymmetricMemory memory;
    /** The runtime this is the life cycle of (the provider's current one until finalize). */
    private final ShmemRuntime runtime;
    private final Thread initThread;
    private final Thread shutdownHook;
    /** The process that initialized: only it may finalize implicitly (subprocess clause 4). */
    private final long initPid = ProcFs.selfPid();
    /** This PE's flight recording (oshrun --jfr), written at finalize; null when none. */
    private Recording recording;

    /** At the end of the runtime's construction: the exit hook and the failure handler are installed. */
    Lifecycle(PeState st, TeamRegistry teams, SymmetricMemory memory, ShmemRuntime runtime) {
        this.st = st;
        this.teams = teams;
        this.memory = memory;
        this.runtime = runtime;
        this.initThread = Thread.currentThread();
        this.shutdownHook = new Thread(this::implicitFinalize, "jshmem-implicit-finalize");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        ExitStatus.watch();
        installFailureHandler();
    }

    /**
     * Collective: starts the flight recording, creates the symmetric heap and the transport
     * {@code transportFor} makes, then the runtime {@code runtimeFor} makes of them; releases what
     * was made if that fails.
     */
    static ShmemRuntime init(Bootstrap bootstrap, Config config, Function<SymmetricHeap, RemoteTransport> transportFor,
            Function<PeState, ShmemRuntime> runtimeFor) {
        Recording recording = Flight.startRecording(Settings.systemEnvironment(), bootstrap.jobId(), bootstrap.generation(), bootstrap.rank());
        SymmetricHeap heap;
        ShmemRuntime rt;
        RemoteTransport transport = null;
        try {
            heap = SymmetricHeap.create(bootstrap, config);
        } catch (RuntimeException e) {
            Flight.stop(recording);
            throw e;
        }
        try {
            transport = transportFor.apply(heap);
            PeState st = new PeState(bootstrap, config, heap, transport);
            rt = runtimeFor.apply(st);
        } catch (RuntimeException e) {
            releaseFailing(transport, heap);
            Flight.stop(recording);
            throw e;
        }
        rt.lifecycle.recording = recording;
        PeState st = rt.st;
        String traffic = bootstrap.traffic();
        if (!traffic.isEmpty() && Log.BOOTSTRAP.isLoggable(Level.DEBUG)) {
            // What init cost in bootstrap traffic: with values on demand it grows with the peers used, not N.
            Log.BOOTSTRAP.log(Level.DEBUG, "jshmem: PE " + st.me + " of " + st.npes + ": bootstrap at init: " + traffic);
        }
        if (st.me == 0 && (config.version() || config.info()) && Log.CORE.isLoggable(Level.INFO)) {
            List<String> lines = new ArrayList<>();
            lines.add("jshmem " + ShmemVersion.JSHMEM_VERSION + " (OpenSHMEM " + ShmemVersion.SPEC_MAJOR + "."
                    + ShmemVersion.SPEC_MINOR + ")");
            if (config.info()) {
                lines.addAll(InfoReport.forJob(config, st, bootstrap.describe(), transportName(st)));
                lines.addAll(InfoReport.forkSafety(forkSafetyReport(st)));
            }
            Log.CORE.info(String.join(System.lineSeparator(), lines)); // one record: the report's lines stay together
        }
        return rt;
    }

    // ---------------------------------------------------------------- finalize

    /** close() matching the last init: finalizes, unless {@code unwinding} (an exception unwinds through the close). */
    void close(boolean unwinding) {
        if (unwinding) {
            failingClose();
            return;
        }
        finalizeNow();
    }

    /**
     * close() while an exception unwinds (try-with-resources, finally): this PE is failing. It does
     * not finalize, since its finalize would release PEs waiting in a barrier it never reached; the
     * exception, once it leaves the thread, ends the job ({@link #installFailureHandler}). If it is
     * caught and the PE runs on, the job is ended after {@link #FAILING_CLOSE_GRACE_MILLIS}.
     */
    private void failingClose() {
        closedFailing = true;
        st.failed = true;
        Thread.ofPlatform().daemon().name("jshmem-failing-close").start(() -> {
            try {
                Thread.sleep(FAILING_CLOSE_GRACE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            if (st.abortReason == null) {
                st.bootstrap.abort(1, "PE " + st.me + " closed jshmem while an exception unwound, caught the exception"
                        + " and ran on; it will never join the other PEs' collectives");
            }
        });
    }

    private volatile boolean closedFailing;

    /** How long the exception of a failing close() may take to leave its thread. */
    private static final long FAILING_CLOSE_GRACE_MILLIS = 2_000;

    /** shmem_finalize proper (collective), whatever the count of init calls. */
    private void finalizeNow() {
        synchronized (this) {
            if (st.finalized) {
                return;
            }
            teams.barrier(TeamImpl.OP_FINALIZE, 0, 0, 0);
            st.finalized = true;
            for (OpenContext c : st.contexts) {
                c.invalidateAtFinalize();
            }
            memory.freeAllAtFinalize();
        }
        if (st.transport != null) {
            st.transport.close();
        }
        st.heap.close();
        if (Thread.currentThread() != shutdownHook) {
            // At exit JFR's own hook writes the recording (dump on exit), concurrently with this
            // one: stopping and closing it here as well left an empty file in most runs.
            Flight.stop(recording);
        }
        st.bootstrap.finalized();
        st.bootstrap.close();
        uninstallFailureHandler();
        ShmemProviderImpl.finalizedNow(runtime);
        if (Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException ignored) {
                // Already shutting down.
            }
        }
    }

    /**
     * At exit without close(): finalize collectively, unless this PE is failing (then others may
     * never come): an uncaught exception, an abort, or an exit with a status other than 0
     * ({@code System.exit(3)}; SIGTERM, SIGINT or SIGHUP: 128 + signal), which the launcher then
     * reports as this PE's, ending the job.
     */
    private void implicitFinalize() {
        if (ProcFs.selfPid() != initPid) {
            return; // not the initializing process (a JVM never runs its parent's hooks; checked anyway)
        }
        if (st.finalized) {
            return;
        }
        int exit = ExitStatus.get();
        if (exit != 0 && exit != ExitStatus.UNKNOWN) {
            st.failed = true;
            if (st.abortReason == null && (exit < 129 || exit > 128 + 64)) {
                // Said before the transport lets go: over UCX the peers' operations to this PE fail
                // at once (an endpoint timeout naming it), and their aborts must not come first.
                // (128 + signal: the launcher sees the signal's status; under srun every PE gets it.)
                st.bootstrap.exiting(exit, "PE " + st.me + " exited with status " + exit + " (System.exit) before finalize");
            }
        }
        if (st.failed || st.abortReason != null) {
            // The heap stays mapped until the process is gone (its file was unlinked at init): the
            // program's threads run on during the shutdown hooks, and an unmapped heap would make
            // them fail with "Already closed" instead of ending with the abort.
            if (st.transport != null) {
                st.transport.abandon();
            }
            return;
        }
        try {
            finalizeNow();
        } catch (RuntimeException e) {
            Log.CORE.warning("jshmem: PE " + st.me + ": implicit finalize at exit failed: " + e.getMessage());
        }
    }

    /**
     * The failing paths' release (init failed, a failing PE exits, abort): the transport lets go
     * of the heap without waiting for any peer (its progress thread stopped, the heap
     * unregistered) before the heap is unmapped.
     */
    private static void releaseFailing(RemoteTransport transport, SymmetricHeap heap) {
        try {
            if (transport != null) {
                transport.abandon();
            }
        } finally {
            heap.close();
        }
    }

    /** The handler {@link #installFailureHandler} installed, and the one it replaced. */
    private Thread.UncaughtExceptionHandler failureHandler;
    private Thread.UncaughtExceptionHandler previousHandler;

    /**
     * At finalize: puts back the handler this runtime replaced (if nobody replaced it since), so that
     * runtimes of later initializations (1.6 re-initialization) do not pile up.
     */
    private synchronized void uninstallFailureHandler() {
        if (failureHandler != null && Thread.getDefaultUncaughtExceptionHandler() == failureHandler) {
            Thread.setDefaultUncaughtExceptionHandler(previousHandler);
        }
    }

    /** An uncaught exception in the initializing thread marks this PE as failing, so exit does not wait for others. */
    private synchronized void installFailureHandler() {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        previousHandler = previous;
        failureHandler = (thread, uncaught) -> {
            Throwable error = heapFaultReported(uncaught);
            boolean failing = thread == initThread && !st.finalized && st.abortReason == null;
            if (thread == initThread) {
                st.failed = true;
            }
            if (previous == null && thread == initThread && uncaught instanceof JobAbortedException aborted
                    && globalExitStatus(aborted.reason()) != null) {
                // Another PE's globalExit ends the job, and the launcher (or that PE, under a PMI
                // launcher) says so in one line: a stack trace from every other PE, waiting where
                // the exit found it, would only bury that (and after globalExit(0) nothing failed).
                return;
            }
            if (previous != null) {
                previous.uncaughtException(thread, error);
            } else {
                System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                error.printStackTrace();
            }
            if (failing && st.abortReason == null) {
                // The exception is why the job ends: the launcher reports it (a PMI bootstrap's own handler may have already).
                st.bootstrap.abort(1, "PE " + st.me + " failed before finalize: " + heapFault(uncaught)
                        + (closedFailing ? " (jshmem was closed as it unwound; no PE was let past a collective this PE"
                        + " never reached)" : ""));
            }
        };
        Thread.setDefaultUncaughtExceptionHandler(failureHandler);
    }

    /** shmem_global_exit: this PE is failing; the job ends with {@code status}. */
    void globalExit(int status) {
        st.failed = true;
        VarHandle.fullFence();
        st.bootstrap.abort(status, "PE " + st.me + GLOBAL_EXIT + status + ")");
        Runtime.getRuntime().halt(status);
    }

    /** How {@link #globalExit} tells the launcher why (the launcher passes it on to the other PEs). */
    private static final String GLOBAL_EXIT = " called globalExit(";
    private static final Pattern GLOBAL_EXIT_REASON = Pattern.compile(".*\\bPE \\d+" + Pattern.quote(GLOBAL_EXIT) + "(-?\\d+)\\)");

    /** The status of the globalExit that {@code reason} (an abort's, as the other PEs get it) reports; null if it is another abort. */
    static Integer globalExitStatus(String reason) {
        Matcher m = reason == null ? null : GLOBAL_EXIT_REASON.matcher(reason);
        return m != null && m.matches() ? Integer.valueOf(m.group(1)) : null;
    }

    /** A fault on the heap that escaped the accesses that catch it (e.g. through a SymArray's local segment), explained. */
    private Object heapFault(Throwable error) {
        return SymmetricHeap.isFault(error) ? st.heap.faultExplanation(error) : error;
    }

    /**
     * What the failure handler reports for an uncaught exception: a fault on the heap that no access
     * could turn into a ShmemException (see Comm's "Faults": the JVM raises it at its next safepoint
     * poll, which may be in the caller's code, not the library's) becomes one here, naming the PE,
     * with the JVM's InternalError as its cause.
     */
    private Throwable heapFaultReported(Throwable error) {
        if (!SymmetricHeap.isFault(error)) {
            return error;
        }
        ShmemException e = new ShmemException("PE " + st.me + ": " + st.heap.faultExplanation(error), error);
        e.setStackTrace(error.getStackTrace());
        return e;
    }

    static ForkSafetyReport forkSafetyReport(PeState st) {
        return ForkSafety.inUse(st.transport == null ? null : st.transport.name(), Settings.systemEnvironment());
    }

    static String transportName(PeState st) {
        if (st.transport == null) {
            return "shm (direct load/store)";
        }
        return "shm on-node, " + st.transport.name() + " off-node; atomics "
                + (st.comm.atomicsOnCpu() ? "on the CPU for this node's PEs" : "through " + st.transport.name() + " for every PE");
    }
}
