/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Use after finalize: initializes, allocates, finalizes (close), then checks that communication,
 * allocation, barriers and local access all throw ShmemException mentioning "finalize", that a
 * second close is harmless, that queryInitialized is false, and that init starts the library again
 * (OpenSHMEM 1.6 re-initialization; {@link Reinit} checks it in depth).
 * Prints {@code CASE after-finalize.<what> PE <k> PASS|FAIL ...} lines; exits 1 if any failed.
 */
public final class AfterFinalize {
    private AfterFinalize() {
    }

    private static int failed;
    private static int me;

    public static void main(String[] args) {
        Shmem shmem = Shmem.init();
        me = shmem.myPe();
        int npes = shmem.nPes();
        int right = (me + 1) % npes;
        SymLongArray a = shmem.calloc(SymType.LONG, 8);
        shmem.p(a, 0, 40 + me, right);
        shmem.barrierAll();
        report("before-close", a.get(0) == 40 + (me - 1 + npes) % npes ? null : "p before close did not arrive: " + a.get(0));
        shmem.close();

        report("close-twice", outcome(shmem::close));
        report("query-initialized", Shmem.queryInitialized() ? "Shmem.queryInitialized() is true after close()" : null);
        report("put", expectFinalize(() -> shmem.put(a, 0, new long[] {1}, 0, 1, right)));
        report("get", expectFinalize(() -> shmem.get(new long[1], 0, a, 0, 1, right)));
        report("p", expectFinalize(() -> shmem.p(a, 1, 5L, right)));
        report("g", expectFinalize(() -> shmem.g(a, 1, me)));
        report("atomic", expectFinalize(() -> shmem.atomicFetchInc(a, 2, right)));
        report("malloc", expectFinalize(() -> shmem.malloc(SymType.LONG, 4)));
        report("free", expectFinalize(() -> shmem.free(a)));
        report("barrier-all", expectFinalize(shmem::barrierAll));
        report("sync-all", expectFinalize(shmem::syncAll));
        report("local-get", expectFinalize(() -> a.get(0)));
        report("local-set", expectFinalize(() -> a.set(0, 1)));
        report("local-segment", expectFinalize(a::local));
        report("wait-until", expectFinalize(() -> shmem.waitUntil(a, 0, io.jshmem.Cmp.EQ, 12345)));
        report("ptr", expectFinalize(() -> shmem.ptr(a, me)));
        report("addr-accessible", shmem.addrAccessible(a, me) ? "addrAccessible is true after close()" : null);
        report("pe-accessible", shmem.peAccessible(me) ? "peAccessible(myPe) is true after close()" : null);
        String init = outcome(() -> {
            Shmem again = Shmem.init();
            try {
                if (again == shmem) {
                    throw new AssertionError("init after close returned the finalized handle");
                }
                again.barrierAll();
            } finally {
                again.close();
            }
        });
        report("init-again", init == null ? null : "Shmem.init() after close() (1.6 re-initialization) failed: " + init);
        System.exit(failed > 0 ? 1 : 0);
    }

    private static void report(String what, String failure) {
        if (failure == null) {
            Out.line("CASE after-finalize." + what + " PE " + me + " PASS");
        } else {
            failed++;
            Out.line("CASE after-finalize." + what + " PE " + me + " FAIL " + failure);
        }
    }

    /** null if the action returns normally, else a description of what it threw. */
    private static String outcome(Runnable action) {
        try {
            action.run();
            return null;
        } catch (Throwable t) {
            return t.getClass().getSimpleName() + ": " + t.getMessage();
        }
    }

    /** null if the action throws a ShmemException mentioning finalize and naming this PE. */
    private static String expectFinalize(Runnable action) {
        try {
            action.run();
            return "no exception after close() (expected ShmemException mentioning finalize)";
        } catch (ShmemException e) {
            List<String> problems = new ArrayList<>();
            String m = e.getMessage() == null ? "" : e.getMessage();
            if (!m.toLowerCase(Locale.ROOT).contains("finalize")) {
                problems.add("message does not mention finalize");
            }
            if (!m.matches("(?s).*\\bPE " + me + "(?!\\d).*")) {
                problems.add("message does not name PE " + me);
            }
            return problems.isEmpty() ? null : String.join(", ", problems) + ": " + m;
        } catch (Throwable t) {
            return "expected ShmemException mentioning finalize, got " + CaseContext.describe(t);
        }
    }
}
