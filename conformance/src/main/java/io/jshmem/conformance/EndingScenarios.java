/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * Jobs that end badly, for EndingMessagesTest; PE 1 goes, the others must end with its reason:
 * <ul>
 * <li>{@code sigterm}: PE 1 gets a SIGTERM (sent by itself, as an administrator would) while every PE
 *     loops on barriers: reported as a SIGTERM, not as a finalize that does not match the barriers;
 * <li>{@code halt-while-busy}: PE 1 halts while the others write their own heap in a loop (no
 *     jshmem call that would see the abort): they must not fail with "Already closed" as the launcher
 *     ends them.
 * <li>{@code sigkill-and-report}: PE 1 fails, with an exception naming PE 0 as a transport's error
 *     would (UCX: "Endpoint timeout"), and so aborts the job; PE 0, told by PE 1 just before, kills
 *     itself with SIGKILL 50 ms later, while the launcher may already be reading PE 1's abort. The
 *     launcher must report PE 0's death (status 137), not PE 1's abort.
 * <li>{@code exit-while-peers-wait}: PE 1 calls {@code System.exit(3)} while PE 0 waits for a flag
 *     and PE 2 in a barrier: the job ends with status 3, PE 1 named, rather than PE 1's exit hook
 *     finalizing collectively (waiting for PEs that never come, or reported as a mismatched call);
 * <li>{@code exit-3}: {@code System.exit(3)} at once (run without a launcher: a 1-PE job exits with
 *     3, its exit hook neither finalizing nor blocking);
 * <li>{@code sigterm-while-waiting}: PE 1 gets a SIGTERM while its main thread waits in a barrier
 *     (PE 2 sleeps): always status 143 and the signal named, never an exception's status 1.
 * </ul>
 */
public final class EndingScenarios {
    private EndingScenarios() {
    }

    /** kill(2), linked before it is needed: linking takes a cold JVM longer than the race it is for. */
    @SuppressWarnings("restricted") // PEs run with --enable-native-access=ALL-UNNAMED
    private static java.lang.invoke.MethodHandle killFunction() {
        java.lang.foreign.Linker linker = java.lang.foreign.Linker.nativeLinker();
        return linker.downcallHandle(linker.defaultLookup().find("kill").orElseThrow(),
                java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_INT,
                        java.lang.foreign.ValueLayout.JAVA_INT, java.lang.foreign.ValueLayout.JAVA_INT));
    }

    public static void main(String[] args) throws Throwable {
        Shmem shmem = Shmem.init();
        int me = shmem.myPe();
        SymLongArray x = shmem.calloc(SymType.LONG, 1);
        switch (args[0]) {
            case "sigterm" -> {
                for (int i = 0; i < 2_000; i++) {
                    if (me == 1 && i == 20) {
                        new ProcessBuilder("kill", "-TERM", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                    }
                    shmem.barrierAll();
                    Thread.sleep(5);
                }
            }
            case "halt-while-busy" -> {
                shmem.barrierAll();
                if (me == 1) {
                    Thread.sleep(200);
                    Runtime.getRuntime().halt(3);
                }
                for (long i = 0; i < Long.MAX_VALUE; i++) {
                    x.set(0, i);
                }
            }
            case "sigkill-and-report" -> {
                java.lang.invoke.MethodHandle kill = killFunction();
                int self = (int) ProcessHandle.current().pid();
                int unused = (int) kill.invokeExact(self, 0); // kill(self, 0): linked and run once, to be quick later
                shmem.barrierAll();
                if (me == 1) {
                    shmem.p(x, 0, 1L, 0);
                    shmem.quiet();
                    throw new ShmemException("PE 1: UCX get from PE 0 failed: Endpoint timeout (-80) (simulated)");
                }
                if (me == 0) {
                    shmem.waitUntil(x, 0, Cmp.NE, 0L);
                    Thread.sleep(50);
                    unused = (int) kill.invokeExact(self, 9); // SIGKILL
                    throw new AssertionError("PE 0 is alive after SIGKILL (" + unused + ")");
                }
                shmem.barrierAll(); // PE 2 waits here for the launcher to end it
            }
            case "exit-3" -> System.exit(3);
            case "exit-while-peers-wait" -> {
                shmem.barrierAll();
                if (me == 1) {
                    System.exit(3);
                }
                if (me == 0) {
                    shmem.waitUntil(x, 0, Cmp.NE, 0L); // never set: the launcher ends PE 0 here
                }
                shmem.barrierAll();
            }
            case "sigterm-while-waiting" -> {
                shmem.barrierAll();
                if (me == 1) {
                    Thread.ofPlatform().start(() -> {
                        try {
                            Thread.sleep(300);
                            new ProcessBuilder("kill", "-TERM", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
                }
                if (me == 2) {
                    Thread.sleep(60_000); // the launcher ends PE 2 here
                }
                shmem.barrierAll();
            }
            default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
        }
        shmem.close();
    }
}
