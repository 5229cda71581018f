/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.spawn;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * posix_spawnp(3) called through the FFM API: what {@link Spawn} uses when the JVM's own
 * {@link ProcessBuilder} would fork ({@code -Djdk.lang.Process.launchMechanism=FORK} or
 * {@code VFORK}), or when asked with {@link Spawn.Mechanism#POSIX_SPAWN}. glibc implements it with
 * {@code clone(CLONE_VM | CLONE_VFORK)} and exec: no page table is copied, so registered memory
 * cannot be disturbed, whatever the kernel and the network.
 *
 * <p>The child gets what {@link ProcessBuilder} gives one: standard streams per redirect (pipes are
 * created {@code O_CLOEXEC} and dup'ed onto 0, 1, 2), every other descriptor closed
 * ({@code posix_spawn_file_actions_addclosefrom_np}, glibc 2.34+), the working directory
 * ({@code posix_spawn_file_actions_addchdir_np}, glibc 2.29+), an empty signal mask and default
 * signal dispositions. A reaper thread per child waits for it ({@code waitid}) and reaps it, so no
 * zombie is left even if nobody waits.
 *
 * <p>Linux on x86-64 and AArch64 (glibc): the constants below are those of the generic Linux ABI.
 */
final class NativeSpawn {
    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    private static final int O_CREAT = 0100;
    private static final int O_TRUNC = 01000;
    private static final int O_APPEND = 02000;
    private static final int O_CLOEXEC = 02000000;
    private static final short POSIX_SPAWN_SETSIGDEF = 0x04;
    private static final short POSIX_SPAWN_SETSIGMASK = 0x08;
    private static final int P_PID = 1;
    private static final int WEXITED = 4;
    private static final int WNOWAIT = 0x01000000;
    private static final int EINTR = 4;
    private static final int SIGKILL = 9;
    private static final int SIGTERM = 15;
    private static final int CLD_EXITED = 1;
    /** Opaque glibc types, allocated generously (posix_spawn_file_actions_t is 80 bytes, posix_spawnattr_t 336, sigset_t 128, siginfo_t 128). */
    private static final long OPAQUE = 1024;

    private NativeSpawn() {
    }

    /** The C functions, bound on first use. */
    @SuppressWarnings("restricted") // FFM downcalls: PEs run with --enable-native-access (oshrun gives it)
    private static final class Libc {
        static final Linker LINKER = Linker.nativeLinker();
        static final SymbolLookup LOOKUP = LINKER.defaultLookup();
        static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        static final Linker.Option SAVE_ERRNO = Linker.Option.captureCallState("errno");

        static final MethodHandle POSIX_SPAWNP = fn("posix_spawnp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
        static final MethodHandle FA_INIT = fn("posix_spawn_file_actions_init", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle FA_DESTROY = fn("posix_spawn_file_actions_destroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle FA_ADDDUP2 = fn("posix_spawn_file_actions_adddup2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        static final MethodHandle FA_ADDOPEN = fn("posix_spawn_file_actions_addopen",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        static final Optional<MethodHandle> FA_ADDCHDIR = optional("posix_spawn_file_actions_addchdir_np",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        static final Optional<MethodHandle> FA_ADDCLOSEFROM = optional("posix_spawn_file_actions_addclosefrom_np",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        static final MethodHandle ATTR_INIT = fn("posix_spawnattr_init", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle ATTR_DESTROY = fn("posix_spawnattr_destroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle ATTR_SETFLAGS = fn("posix_spawnattr_setflags", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_SHORT));
        static final MethodHandle ATTR_SETSIGMASK = fn("posix_spawnattr_setsigmask", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        static final MethodHandle ATTR_SETSIGDEFAULT = fn("posix_spawnattr_setsigdefault", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        static final MethodHandle SIGEMPTYSET = fn("sigemptyset", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle SIGFILLSET = fn("sigfillset", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle PIPE2 = fn("pipe2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), SAVE_ERRNO);
        static final MethodHandle CLOSE = fn("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        static final MethodHandle WAITID = fn("waitid", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), SAVE_ERRNO);
        static final MethodHandle KILL = fn("kill", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), SAVE_ERRNO);
        static final MethodHandle STRERROR = fn("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));

        private static MethodHandle fn(String name, FunctionDescriptor d, Linker.Option... options) {
            return optional(name, d, options).orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
        }

        private static Optional<MethodHandle> optional(String name, FunctionDescriptor d, Linker.Option... options) {
            return LOOKUP.find(name).map(addr -> LINKER.downcallHandle(addr, d, options));
        }
    }

    /** strerror(code). */
    @SuppressWarnings("restricted")
    static String strerror(int code) {
        try {
            MemorySegment s = (MemorySegment) Libc.STRERROR.invokeExact(code);
            return s.reinterpret(4096).getString(0, StandardCharsets.UTF_8);
        } catch (Throwable t) {
            return "error " + code;
        }
    }

    /** A failed spawn: the errno posix_spawnp (or a step before it) returned. */
    static final class SpawnError extends IOException {
        private static final long serialVersionUID = 1L;
        final int errno;

        SpawnError(int errno, String message) {
            super(message);
            this.errno = errno;
        }
    }

    /**
     * Starts {@code command}. Redirect files must be absolute (the caller resolves them) and already
     * checked; {@code directory} may be null.
     */
    static NativeProcess start(List<String> command, Map<String, String> env, Path directory,
                               ProcessBuilder.Redirect in, ProcessBuilder.Redirect out, ProcessBuilder.Redirect err,
                               boolean mergeErr) throws IOException {
        try {
            return doStart(command, env, directory, in, out, err, mergeErr);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException("posix_spawnp through FFM failed: " + t, t);
        }
    }

    private static NativeProcess doStart(List<String> command, Map<String, String> env, Path directory,
                                         ProcessBuilder.Redirect in, ProcessBuilder.Redirect out, ProcessBuilder.Redirect err,
                                         boolean mergeErr) throws Throwable {
        if (directory != null && Libc.FA_ADDCHDIR.isEmpty()) {
            throw new IOException("this C library has no posix_spawn_file_actions_addchdir_np (glibc 2.29+): cannot set the working directory");
        }
        List<Integer> pipeFds = new ArrayList<>(); // every pipe end, closed on failure
        int[] parentEnd = {-1, -1, -1};
        int[] childEnd = {-1, -1, -1};
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fa = arena.allocate(OPAQUE, 16);
            MemorySegment attr = arena.allocate(OPAQUE, 16);
            check((int) Libc.FA_INIT.invokeExact(fa), "posix_spawn_file_actions_init");
            check((int) Libc.ATTR_INIT.invokeExact(attr), "posix_spawnattr_init");
            try {
                ProcessBuilder.Redirect[] redirects = {in, out, err};
                for (int fd = 0; fd < 3; fd++) {
                    ProcessBuilder.Redirect r = redirects[fd];
                    if (fd == 2 && mergeErr) {
                        check((int) Libc.FA_ADDDUP2.invokeExact(fa, 1, 2), "posix_spawn_file_actions_adddup2");
                        continue;
                    }
                    switch (r.type()) {
                        case PIPE -> {
                            MemorySegment fds = arena.allocate(JAVA_INT, 2);
                            MemorySegment state = arena.allocate(Libc.CAPTURE);
                            if ((int) Libc.PIPE2.invokeExact(state, fds, O_CLOEXEC) != 0) {
                                int e = (int) Libc.ERRNO.get(state, 0L);
                                throw new SpawnError(e, "pipe2: " + strerror(e));
                            }
                            int readEnd = fds.getAtIndex(JAVA_INT, 0);
                            int writeEnd = fds.getAtIndex(JAVA_INT, 1);
                            pipeFds.add(readEnd);
                            pipeFds.add(writeEnd);
                            childEnd[fd] = fd == 0 ? readEnd : writeEnd;
                            parentEnd[fd] = fd == 0 ? writeEnd : readEnd;
                            check((int) Libc.FA_ADDDUP2.invokeExact(fa, childEnd[fd], fd), "posix_spawn_file_actions_adddup2");
                        }
                        case INHERIT -> {
                            // the child keeps descriptor fd
                        }
                        case READ, WRITE, APPEND -> {
                            int flags = switch (r.type()) {
                                case READ -> O_RDONLY;
                                case WRITE -> O_WRONLY | O_CREAT | O_TRUNC;
                                default -> O_WRONLY | O_CREAT | O_APPEND;
                            };
                            MemorySegment path = arena.allocateFrom(r.file().getAbsolutePath());
                            check((int) Libc.FA_ADDOPEN.invokeExact(fa, fd, path, flags, 0666), "posix_spawn_file_actions_addopen");
                        }
                    }
                }
                if (Libc.FA_ADDCLOSEFROM.isPresent()) {
                    check((int) Libc.FA_ADDCLOSEFROM.get().invokeExact(fa, 3), "posix_spawn_file_actions_addclosefrom_np");
                }
                if (directory != null) {
                    MemorySegment dir = arena.allocateFrom(directory.toAbsolutePath().toString());
                    check((int) Libc.FA_ADDCHDIR.get().invokeExact(fa, dir), "posix_spawn_file_actions_addchdir_np");
                }
                MemorySegment mask = arena.allocate(OPAQUE, 16);
                MemorySegment defaults = arena.allocate(OPAQUE, 16);
                check((int) Libc.SIGEMPTYSET.invokeExact(mask), "sigemptyset");
                check((int) Libc.SIGFILLSET.invokeExact(defaults), "sigfillset");
                check((int) Libc.ATTR_SETSIGMASK.invokeExact(attr, mask), "posix_spawnattr_setsigmask");
                check((int) Libc.ATTR_SETSIGDEFAULT.invokeExact(attr, defaults), "posix_spawnattr_setsigdefault");
                check((int) Libc.ATTR_SETFLAGS.invokeExact(attr, (short) (POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)),
                        "posix_spawnattr_setflags");

                MemorySegment argv = stringArray(arena, command);
                List<String> envList = new ArrayList<>();
                env.forEach((k, v) -> envList.add(k + "=" + v));
                MemorySegment envp = stringArray(arena, envList);
                MemorySegment pidOut = arena.allocate(JAVA_INT);
                MemorySegment file = arena.allocateFrom(command.get(0));
                int rc = (int) Libc.POSIX_SPAWNP.invokeExact(pidOut, file, fa, attr, argv, envp);
                if (rc != 0) {
                    throw new SpawnError(rc, "error=" + rc + ", " + strerror(rc));
                }
                long pid = pidOut.get(JAVA_INT, 0);
                // Parent ends become Java streams by reopening /proc/self/fd/N (same pipe); our own copy of
                // each child end is still open, so no open blocks.
                OutputStream stdin = OutputStream.nullOutputStream();
                InputStream stdout = InputStream.nullInputStream();
                InputStream stderr = InputStream.nullInputStream();
                try {
                    if (parentEnd[0] >= 0) {
                        stdin = new BufferedOutputStream(new FileOutputStream("/proc/self/fd/" + parentEnd[0]));
                    }
                    if (parentEnd[1] >= 0) {
                        stdout = new BufferedInputStream(new FileInputStream("/proc/self/fd/" + parentEnd[1]));
                    }
                    if (parentEnd[2] >= 0) {
                        stderr = new BufferedInputStream(new FileInputStream("/proc/self/fd/" + parentEnd[2]));
                    }
                } catch (IOException e) {
                    // The child runs: end it, and let its reaper collect it.
                    new NativeProcess(pid, OutputStream.nullOutputStream(), InputStream.nullInputStream(),
                            InputStream.nullInputStream()).destroyForcibly();
                    stdin.close();
                    stdout.close();
                    throw new IOException("cannot open the pipes of process " + pid + " through /proc/self/fd: " + e, e);
                }
                return new NativeProcess(pid, stdin, stdout, stderr);
            } finally {
                for (int fd : pipeFds) {
                    int ignored = (int) Libc.CLOSE.invokeExact(fd);
                }
                int ignored1 = (int) Libc.FA_DESTROY.invokeExact(fa);
                int ignored2 = (int) Libc.ATTR_DESTROY.invokeExact(attr);
            }
        }
    }

    private static void check(int rc, String what) throws SpawnError {
        if (rc != 0) {
            throw new SpawnError(rc, what + ": " + strerror(rc));
        }
    }

    private static MemorySegment stringArray(Arena arena, List<String> strings) {
        MemorySegment array = arena.allocate(ADDRESS, strings.size() + 1L);
        for (int i = 0; i < strings.size(); i++) {
            array.setAtIndex(ADDRESS, i, arena.allocateFrom(strings.get(i)));
        }
        array.setAtIndex(ADDRESS, strings.size(), MemorySegment.NULL);
        return array;
    }

    /** A child started by posix_spawnp, as a {@link Process}. */
    static final class NativeProcess extends Process {
        private final long pid;
        private final OutputStream stdin;
        private final InputStream stdout;
        private final InputStream stderr;
        private final CompletableFuture<Integer> exit = new CompletableFuture<>();
        private final Object lock = new Object();
        /** Set (under lock) once the child has exited, before it is reaped: no signal is sent after. */
        private boolean exited;

        NativeProcess(long pid, OutputStream stdin, InputStream stdout, InputStream stderr) {
            this.pid = pid;
            this.stdin = stdin;
            this.stdout = stdout;
            this.stderr = stderr;
            Thread.ofPlatform().daemon().name("jshmem-spawn-reaper-" + pid).stackSize(256 * 1024).start(this::reap);
        }

        /** Waits for the child without reaping it (WNOWAIT), marks it exited, then reaps it. */
        private void reap() {
            int status;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment info = arena.allocate(OPAQUE, 16);
                MemorySegment state = arena.allocate(Libc.CAPTURE);
                status = waitid(info, state, WEXITED | WNOWAIT);
                synchronized (lock) {
                    exited = true;
                }
                waitid(info, state, WEXITED);
            } catch (Throwable t) {
                status = -1;
                synchronized (lock) {
                    exited = true;
                }
            }
            exit.complete(status);
        }

        /** waitid(P_PID, pid, info, options), retried on EINTR; the exit status as Process reports it (128+signal if killed), -1 if unknown. */
        private int waitid(MemorySegment info, MemorySegment state, int options) throws Throwable {
            while (true) {
                info.fill((byte) 0);
                int rc = (int) Libc.WAITID.invokeExact(state, P_PID, (int) pid, info, options);
                if (rc == 0) {
                    int code = info.get(JAVA_INT, 8);   // si_code
                    int st = info.get(JAVA_INT, 24);    // si_status
                    return code == CLD_EXITED ? st : 128 + st;
                }
                int e = (int) Libc.ERRNO.get(state, 0L);
                if (e != EINTR) {
                    return -1;
                }
            }
        }

        private void signal(int sig) {
            synchronized (lock) {
                if (exited) {
                    return;
                }
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment state = arena.allocate(Libc.CAPTURE);
                    int ignored = (int) Libc.KILL.invokeExact(state, (int) pid, sig);
                } catch (Throwable t) {
                    throw new IllegalStateException("kill(" + pid + ", " + sig + ") failed: " + t, t);
                }
            }
        }

        @Override
        public OutputStream getOutputStream() {
            return stdin;
        }

        @Override
        public InputStream getInputStream() {
            return stdout;
        }

        @Override
        public InputStream getErrorStream() {
            return stderr;
        }

        @Override
        public int waitFor() throws InterruptedException {
            try {
                return exit.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }

        @Override
        public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
            try {
                exit.get(timeout, unit);
                return true;
            } catch (TimeoutException e) {
                return false;
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }

        @Override
        public int exitValue() {
            Integer v = exit.getNow(null);
            if (v == null) {
                throw new IllegalThreadStateException("process " + pid + " has not exited");
            }
            return v;
        }

        @Override
        public void destroy() {
            signal(SIGTERM);
        }

        @Override
        public Process destroyForcibly() {
            signal(SIGKILL);
            return this;
        }

        @Override
        public boolean supportsNormalTermination() {
            return true;
        }

        @Override
        public boolean isAlive() {
            return !exit.isDone();
        }

        @Override
        public long pid() {
            return pid;
        }

        @Override
        public CompletableFuture<Process> onExit() {
            return exit.thenApply(x -> this);
        }

        @Override
        public ProcessHandle toHandle() {
            return ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("process " + pid + " is gone"));
        }

        @Override
        public String toString() {
            return "Process[pid=" + pid + ", exitValue=" + (exit.isDone() ? exit.getNow(-1) : "\"not exited\"") + ", posix_spawnp]";
        }
    }
}
