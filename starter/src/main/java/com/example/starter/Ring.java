package com.example.starter;

import io.jshmem.Shmem;
import io.jshmem.ShmemTeam;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * Every PE puts its number into its right neighbour's inbox, then the team sums the inboxes. Prints
 * one line per PE and, on PE 0, the sum; exits with status 1 if anything is wrong.
 */
public final class Ring {
    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            SymLongArray inbox = shmem.calloc(SymType.LONG, 1);
            SymLongArray sum = shmem.calloc(SymType.LONG, 1);

            shmem.p(inbox, 0, me, (me + 1) % n);   // into the right neighbour's inbox
            shmem.barrierAll();                     // completes the puts everywhere
            long got = inbox.get(0);
            System.out.println("PE " + me + " of " + n + " got " + got);

            ShmemTeam world = shmem.teamWorld();
            world.sumReduce(sum, inbox, 1);         // every PE gets 0 + 1 + ... + (n-1)
            long expected = (long) n * (n - 1) / 2;
            boolean ok = got == (me + n - 1) % n && sum.get(0) == expected;
            if (me == 0) {
                System.out.println("sum " + sum.get(0) + (ok ? " ok" : " WRONG, expected " + expected));
            }
            if (!ok) {
                shmem.globalExit(1);
            }
        }
    }
}
