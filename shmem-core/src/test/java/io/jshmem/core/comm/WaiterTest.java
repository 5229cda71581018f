/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.core.base.Futex;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The adaptive spin of {@link Waiter}: the rule itself, and a waiter driven through waits that end
 * while spinning or only after it gave up spinning (no real partner, no timing); and the doorbell:
 * rung once per sleep, and a real sleeper woken by a write.
 */
class WaiterTest {
    private static final long PHASE = 3L << 62;
    private static final long WORD = 128; // past the wait-control line

    @Test
    void ruleGrowsOnSpinSuccessAndShortOverrunsAndShrinksOnLongOnes() {
        // Caught while spinning: doubles, up to the maximum.
        assertEquals(200, Waiter.adapt(100, -1, 10, 500, 40.0));
        assertEquals(500, Waiter.adapt(400, -1, 10, 500, 40.0));
        // Caught 2 us after a 100-spin (4 us) budget: 150 spins would have done; twice that.
        assertEquals(300, Waiter.adapt(100, 2_000, 10, 500, 40.0));
        assertEquals(500, Waiter.adapt(100, 12_000, 10, 500, 40.0)); // 400 needed: clamped
        // A spin of the maximum would not have caught it, or it slept: halves, down to the floor.
        assertEquals(50, Waiter.adapt(100, 20_000, 10, 500, 40.0));
        assertEquals(50, Waiter.adapt(100, Long.MAX_VALUE, 10, 500, 40.0));
        assertEquals(10, Waiter.adapt(15, Long.MAX_VALUE, 10, 500, 40.0));
        assertEquals(1, Waiter.adapt(1, Long.MAX_VALUE, 1, 500, 40.0)); // never 0 where spinning is allowed
        // From the floor, success and short overruns bring it back.
        assertEquals(20, Waiter.adapt(10, -1, 10, 500, 40.0));
        assertEquals(60, Waiter.adapt(10, 800, 10, 500, 40.0));
    }

    @Test
    void lateWaitsShrinkTheSpinToItsFloorAndPromptOnesRestoreIt() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(256, 64);
            Waiter waiter = new Waiter(20_000, 0, null, () -> { }, null);
            int max = waiter.maxSpins();
            int min = waiter.minSpins();
            assertTrue(min >= 1 && min <= max, "bounds " + min + ".." + max);
            assertEquals(max, waiter.spinBudget(), "starts at the configured spin");
            assertEquals(max, spinsOfAWaitThatGivesUp(waiter, seg), "spins its whole budget");

            // Partners that are always late (no yield period here: each wait goes to sleep).
            int before = waiter.spinBudget();
            lateWait(waiter, seg); // its first call judges the wait above, which slept
            assertEquals(Math.max(min, before / 2), waiter.spinBudget(), "a wait that slept halves the spin");
            for (int i = 0; i < 40; i++) {
                lateWait(waiter, seg);
            }
            assertEquals(min, spinsOfAWaitThatGivesUp(waiter, seg), "routinely late partners: the spin is down to its floor");
            assertEquals(min, waiter.spinBudget());

            // Partners that arrive while the wait spins: each such wait doubles it, up to the maximum.
            for (int i = 0; i < 40; i++) {
                promptWait(waiter, seg);
            }
            idleOnce(waiter, seg);
            assertEquals(max, waiter.spinBudget(), "prompt partners: back to the configured spin");
        }
    }

    @Test
    void aWaitIsPastItsSpinOnceItYieldsOrSleeps() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(256, 64);
            Waiter spinning = new Waiter(20_000, 0, null, () -> { }, null);
            long w = spinning.idle(0, seg, WORD, 8, 0);
            assertFalse(Waiter.pastSpin(w), "the first call spins");
            Waiter never = new Waiter(0, 0, null, () -> { }, null);
            w = never.idle(0, seg, WORD, 8, 0);
            assertTrue(Waiter.pastSpin(w), "nothing to spin: yields at once");
            w = never.idle(w, seg, WORD, 8, 0); // no yield period: sleeps next
            assertTrue(Waiter.pastSpin(w));
            assertEquals(2L << 62, w & PHASE);
        }
    }

    @Test
    void nothingSpinsWherePesOutnumberCores() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(256, 64);
            Waiter waiter = new Waiter(0, 0, null, () -> { }, null);
            assertEquals(0, waiter.maxSpins());
            for (int i = 0; i < 10; i++) {
                waiter.idle(0, seg, WORD, 8, 0);
                lateWait(waiter, seg);
            }
            assertEquals(0, waiter.spinBudget());
            assertEquals(0, spinsOfAWaitThatGivesUp(waiter, seg), "yields at once");
        }
    }

    @Test
    void wherePesOutnumberCoresAWaitSpinsOnlyWhileTheAwakeOnesFit() throws InterruptedException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mine = arena.allocate(256, 64);
            MemorySegment b = arena.allocate(256, 64);
            MemorySegment c = arena.allocate(256, 64);
            // 4 PEs on 2 cores, three of them mapped here.
            AwakePes awake = new AwakePes(new MemorySegment[] {mine, b, c}, 4, 2);
            assertFalse(awake.fitCores(), "nobody asleep: 4 awake on 2 cores");
            Waiter waiter = new Waiter(20_000, 10_000_000_000L, null, () -> { }, awake);
            int max = waiter.maxSpins();
            assertTrue(max > 0);

            long w = waiter.idle(0, mine, WORD, 8, 0);
            assertEquals(1L << 62, w & PHASE, "4 awake on 2 cores: yields at once");
            Thread.sleep(2); // a long overrun: had it spun, this wait would halve the budget
            w = waiter.idle(w, mine, WORD, 8, 0);
            assertEquals(1L << 62, w & PHASE, "still yielding");

            Comm.INT.set(b, Waiter.SLEEPERS, 1);
            Comm.INT.set(c, Waiter.SLEEPERS, 1);
            assertTrue(awake.fitCores(), "two asleep: 2 awake on 2 cores");
            assertEquals(1, waiter.idle(0, mine, WORD, 8, 0), "the next wait spins");
            assertEquals(max, waiter.spinBudget(), "the wait that did not spin taught the budget nothing");

            Comm.INT.set(c, Waiter.SLEEPERS, 0);
            assertFalse(awake.fitCores(), "one asleep: 3 awake on 2 cores");
            assertEquals(1L << 62, waiter.idle(0, mine, WORD, 8, 0) & PHASE, "yields at once again");
        }
    }

    @Test
    void theBellIsRungOncePerSleepAndASleeperWakesOnTheWrite() throws Exception {
        assertTrue(Futex.available(), "futex syscall");
        Futex.warmUp();
        for (int i = 0; i < 3000 && !Futex.ready(); i++) {
            Thread.sleep(10);
        }
        assertTrue(Futex.ready(), "futex linked");
        try (Arena arena = Arena.ofShared()) {
            MemorySegment seg = arena.allocate(256, 64);
            // A sleeper registered and armed, as Waiter.sleep leaves it: the first write rings.
            Comm.INT.set(seg, Waiter.SLEEPERS, 1);
            Comm.INT.set(seg, Waiter.ARMED, 1);
            Comm.LONG.setRelease(seg, WORD, 1L);
            Waiter.signal(seg);
            assertEquals(1, (int) Comm.INT.get(seg, Waiter.BELL), "the first write rings");
            assertEquals(0, (int) Comm.INT.get(seg, Waiter.ARMED), "and disarms");
            Waiter.signal(seg);
            Waiter.poke(seg);
            assertEquals(1, (int) Comm.INT.get(seg, Waiter.BELL), "later writes do not ring until the sleeper re-arms");
            Comm.INT.set(seg, Waiter.ARMED, 1);
            Waiter.poke(seg);
            assertEquals(2, (int) Comm.INT.get(seg, Waiter.BELL), "re-armed: the next write rings");
            Comm.INT.set(seg, Waiter.SLEEPERS, 0);
            Waiter.signal(seg);
            assertEquals(2, (int) Comm.INT.get(seg, Waiter.BELL), "nobody asleep: no ring");

            // A real sleeper (no spin, no yield period), woken by a write of the word it waits for.
            Waiter waiter = new Waiter(0, 0, null, () -> { }, null);
            Thread sleeper = Thread.ofPlatform().start(() -> {
                long v;
                for (long w = 0; (v = (long) Comm.LONG.getAcquire(seg, WORD)) != 5; ) {
                    w = waiter.idle(w, seg, WORD, 8, v);
                }
            });
            for (int i = 0; i < 10_000 && (int) Comm.INT.getVolatile(seg, Waiter.ARMED) == 0; i++) {
                Thread.sleep(1);
            }
            assertEquals(1, (int) Comm.INT.getVolatile(seg, Waiter.ARMED), "the sleeper armed the bell");
            Comm.LONG.setRelease(seg, WORD, 5L);
            Waiter.signal(seg);
            sleeper.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(sleeper.isAlive(), "the sleeper saw the write");
            assertEquals(0, (int) Comm.INT.get(seg, Waiter.SLEEPERS), "the sleeper left");
        }
    }

    /** A wait that ends after its first spin (the budget is at least 1). */
    private static void promptWait(Waiter waiter, MemorySegment seg) {
        assertEquals(1, waiter.idle(0, seg, WORD, 8, 0));
    }

    /** A wait that ends only once it has gone to sleep (with no yield period, before any sleep). */
    private static void lateWait(Waiter waiter, MemorySegment seg) {
        long w = 0;
        while ((w & PHASE) != 2L << 62) {
            w = waiter.idle(w, seg, WORD, 8, 0);
        }
    }

    private static void idleOnce(Waiter waiter, MemorySegment seg) {
        promptWait(waiter, seg);
    }

    /** How many spins a wait makes before it yields (it then ends, asleep). */
    private static int spinsOfAWaitThatGivesUp(Waiter waiter, MemorySegment seg) {
        long w = 0;
        int calls = 0;
        while ((w & PHASE) == 0) {
            w = waiter.idle(w, seg, WORD, 8, 0);
            calls++;
        }
        while ((w & PHASE) != 2L << 62) {
            w = waiter.idle(w, seg, WORD, 8, 0);
        }
        return calls - 1; // the last call moved to the yield phase
    }
}
