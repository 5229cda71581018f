/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.apps;

import io.jshmem.Shmem;
import java.util.Locale;

/**
 * What the Parallel Research Kernels' SHMEM programs share ({@code include/par-res-kern_*.h},
 * {@code common/SHMEM_bail_out.c}, {@code common/wtime.c}), so that the Java ports behave like the
 * C programs: the same argument parsing (C's {@code atoi}, so a bad number becomes 0 and the
 * original's own check rejects it), the same collective error exit, the same clock and output.
 */
final class Prk {
    /** {@code PRKVERSION} of {@code par-res-kern_general.h} at the commit the ports follow. */
    static final String VERSION = "2.17";
    /** {@code prk_get_alignment()} without {@code PRK_ALIGNMENT}: symmetric buffers aligned to 64 bytes. */
    static final long ALIGNMENT = 64;

    private Prk() {
    }

    /**
     * Thrown by {@link #bailOut} on every PE when any PE reported an error: the kernel finalizes
     * and its main exits with {@link #status} (the C program calls {@code exit(1)}).
     */
    static final class Exit extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int status;

        Exit(int status) {
            super(null, null, false, false);
            this.status = status;
        }
    }

    /** A kernel's body between init and finalize. */
    interface Body {
        void run(Shmem shmem);
    }

    /**
     * Runs {@code body} between init and finalize and returns the exit status: 0, or the
     * {@link Exit} status. Any other exception propagates without finalize (finalize is
     * collective: a PE that failed alone must not wait there for the others; oshrun ends the job).
     */
    static int run(Body body) {
        Shmem shmem = Shmem.init();
        try {
            body.run(shmem);
        } catch (Exit e) {
            shmem.close();
            return e.status;
        }
        shmem.close();
        return 0;
    }

    /** The end of a kernel's main: exits with a failure status, returns on success. */
    static void exit(int status) {
        System.out.flush();
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * bail_out: collective; the maximum of every PE's error flag. If it is positive every PE
     * leaves the kernel ({@link Exit} with status 1), as the C program finalizes and exits. C
     * allocates two symmetric ints and syncs before shmem_int_max_to_all; here the team's scalar
     * reduction (no symmetric memory, no barrier needed).
     */
    static void bailOut(Shmem shmem, int error) {
        if (shmem.teamWorld().maxReduce(error) > 0) {
            throw new Exit(1);
        }
    }

    /** wtime(): seconds, for differences only (C: gettimeofday; here the monotonic clock). */
    static double wtime() {
        return System.nanoTime() * 1.0e-9;
    }

    /**
     * C's {@code atoi}: optional leading white space and sign, then decimal digits up to the first
     * other character; 0 when there are none. The kernels check the value themselves afterwards.
     */
    static int atoi(String s) {
        return (int) atol(s);
    }

    /** C's {@code atol} (glibc: {@code strtol} base 10, saturating at the long range). */
    static long atol(String s) {
        int i = 0;
        int n = s.length();
        while (i < n && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        long v = 0;
        for (; i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9'; i++) {
            int d = s.charAt(i) - '0';
            if (v > (Long.MAX_VALUE - d) / 10) {
                return negative ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            v = v * 10 + d;
        }
        return negative ? -v : v;
    }

    /**
     * factor(): splits {@code r} into two factors as close together as possible, the second the
     * larger; returns {fac1, fac2}.
     */
    static int[] factor(int r) {
        for (int fac1 = (int) Math.sqrt(r + 1.0); fac1 > 0; fac1--) {
            if (r % fac1 == 0) {
                return new int[] {fac1, r / fac1};
            }
        }
        throw new AssertionError("no factor of " + r);
    }

    /** printf as C's (Locale.ROOT: a decimal point whatever the PE's locale). */
    static void printf(String format, Object... args) {
        System.out.print(String.format(Locale.ROOT, format, args));
    }
}
