package com.example.starter;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * Every PE puts its number into its right neighbour's inbox, then the team sums the inboxes. Prints
 * one line per PE and, on PE 0, the sum; exits with status 1 if anything is wrong.
 */
public final class Ring {
    /**
     * What one PE saw.
     *
     * @param got the number its left neighbour put into its inbox
     * @param sum the sum of every PE's inbox
     */
    public record Result(long got, long sum) {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            Result r = ring(shmem);
            System.out.println("PE " + me + " of " + n + " got " + r.got());
            long expected = (long) n * (n - 1) / 2;
            boolean ok = r.got() == (me + n - 1) % n && r.sum() == expected;
            if (me == 0) {
                System.out.println("sum " + r.sum() + (ok ? " ok" : " WRONG, expected " + expected));
            }
            if (!ok) {
                shmem.globalExit(1);
            }
        }
    }

    /** The work, separate from main so that a test can run it in its PEs (see RingTest). */
    public static Result ring(Shmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        SymLongArray inbox = shmem.calloc(SymType.LONG, 1);
        SymLongArray sum = shmem.calloc(SymType.LONG, 1);
        shmem.p(inbox, 0, me, (me + 1) % n);    // into the right neighbour's inbox
        shmem.barrierAll();                      // completes the puts everywhere
        shmem.teamWorld().sumReduce(sum, inbox, 1); // every PE gets 0 + 1 + ... + (n-1)
        Result r = new Result(inbox.get(0), sum.get(0));
        shmem.free(sum);
        shmem.free(inbox);
        return r;
    }
}
