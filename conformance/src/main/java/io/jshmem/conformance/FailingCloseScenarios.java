/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;

/**
 * Jobs in which the last PE's close() runs while an exception unwinds, for FailingCloseTest:
 * <ul>
 * <li>{@code throw-in-try}: it throws inside {@code try (Shmem s = Shmem.init())} before a barrier
 *     the others wait in; none of them may get past it, and the exception is the job's end;
 * <li>{@code caught-runs-on}: the same, but it catches the exception outside the try and computes on:
 *     the job still ends (not at --timeout), since that PE will never join the barrier;
 * <li>{@code finally-normal}: every PE closes in a {@code finally} on the normal path (and in a catch
 *     of a specific exception on PE 0): an ordinary finalize, the job succeeds.
 * </ul>
 * A PE that gets past the barrier prints {@code PAST <pe>}.
 */
public final class FailingCloseScenarios {
    private FailingCloseScenarios() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "throw-in-try" -> throwInTry();
            case "caught-runs-on" -> {
                try {
                    throwInTry();
                } catch (IllegalStateException e) {
                    Thread.sleep(120_000); // the job must end long before this
                }
            }
            case "finally-normal" -> finallyNormal();
            default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
        }
    }

    private static void throwInTry() {
        try (Shmem shmem = Shmem.init()) {
            if (shmem.myPe() == shmem.nPes() - 1) {
                throw new IllegalStateException("thrown on purpose by PE " + shmem.myPe());
            }
            shmem.barrierAll();
            Out.line("PAST " + shmem.myPe());
        }
    }

    private static void finallyNormal() {
        Shmem shmem = Shmem.init();
        if (shmem.myPe() == 0) {
            try {
                throw new UnsupportedOperationException("handled");
            } catch (UnsupportedOperationException e) {
                shmem.barrierAll();
                Out.line("PAST " + shmem.myPe());
                shmem.close();
                return;
            }
        }
        try {
            shmem.barrierAll();
            Out.line("PAST " + shmem.myPe());
        } finally {
            shmem.close();
        }
    }
}
