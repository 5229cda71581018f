/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Wrong arguments end a kernel as they end the C original: its usage or error line on stdout,
 * exit status 1 (bail_out's exit(1)), and no Java stack trace.
 */
class UsageTest {
    static Stream<Arguments> wrongArguments() {
        return Stream.of(
                Arguments.of("Stencil", List.of(), "Usage: io.jshmem.apps.Stencil <# iterations> <array dimension> "),
                Arguments.of("Stencil", List.of("ten", "20"), "ERROR: iterations must be >= 1 : 0 "),
                Arguments.of("Stencil", List.of("2", "3"), "ERROR: Stencil radius 2 exceeds grid size 3"),
                Arguments.of("Transpose", List.of("1"), "Usage: io.jshmem.apps.Transpose <# iterations> <matrix order> [Tile size]"),
                Arguments.of("Transpose", List.of("2", "7"), "ERROR: matrix order 7 should be divisible by # procs 2"),
                Arguments.of("P2p", List.of("1", "2"),
                        "Usage: io.jshmem.apps.P2p  <#iterations> <1st array dimension> <2nd array dimension>"),
                Arguments.of("P2p", List.of("1", "2", "5"), "ERROR: First grid dimension 2 must be > #ranks 2"),
                Arguments.of("IsxStrong", List.of("100"),
                        "  ./isx.strong <total num keys(strong) | keys per pe(weak)> [iterations] <log_file>"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("wrongArguments")
    void wrongArgumentGivesTheOriginalsMessage(String kernel, List<String> args, String expected) throws Exception {
        List<String> options = kernel.startsWith("Isx") ? KernelsTest.ISX_HEAP : List.of();
        Job job = Job.run(2, new ArrayList<>(options), "io.jshmem.apps." + kernel, args.toArray(new String[0]));
        assertEquals(1, job.exitCode(), "exit status" + job.describe());
        assertEquals(1, job.count(java.util.regex.Pattern.quote(expected)), "the message, printed once" + job.describe());
        String all = job.stdout() + job.stderr();
        assertFalse(all.contains("Exception") || all.contains("\tat "), "no stack trace" + job.describe());
    }
}
