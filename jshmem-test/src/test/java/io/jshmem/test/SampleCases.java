/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.test;

import io.jshmem.Shmem;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * A program whose PEs report four cases (one passes, one fails on PE 1, one is skipped on PE 0, one
 * PE 1 does not report), and the factory that {@link ShmemCasesTest} runs through the JUnit engine.
 * Not a test class of its own (the name does not match surefire's patterns).
 */
class SampleCases {
    static final List<String> CASES = List.of("sample.pass", "sample.fail", "sample.skip", "sample.missing");

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            System.out.println(ShmemCases.passed("sample.pass", me));
            System.out.println(me == 1 ? ShmemCases.failed("sample.fail", me, "boom\non PE 1") : ShmemCases.passed("sample.fail", me));
            System.out.println(me == 0 ? ShmemCases.skipped("sample.skip", me, "no widget") : ShmemCases.passed("sample.skip", me));
            if (me != 1) {
                System.out.println(ShmemCases.passed("sample.missing", me));
            }
            shmem.barrierAll();
        }
    }

    @TestFactory
    Stream<DynamicNode> cases() {
        return Stream.of(ShmemCases.job("2 PEs", 2, List.of("-x", "SAMPLE=1"), 120, SampleCases.class.getName(), List.of(), CASES));
    }
}
