package io.jshmem.conformance;

import io.jshmem.Shmem;
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
 * </ul>
 */
public final class EndingScenarios {
    private EndingScenarios() {
    }

    public static void main(String[] args) throws Exception {
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
            default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
        }
        shmem.close();
    }
}
