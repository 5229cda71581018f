/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PE number that replaces %p, and JUL's tokens left alone (the real job: conformance LoggingTest). */
class PeFileHandlerTest {
    @Test
    void percentPIsThePeOfTheLauncherOrThePmiRank() {
        assertEquals("logs/jshmem-pe3.log", PeFileHandler.pattern("logs/jshmem-pe%p.log", Map.of("JSHMEM_PE", "3", "PMIX_RANK", "5")));
        assertEquals("pe5-5.log", PeFileHandler.pattern("pe%p-%p.log", Map.of("PMIX_RANK", "5", "SLURM_PROCID", "6")));
        assertEquals("pe6.log", PeFileHandler.pattern("pe%p.log", Map.of("PMI_RANK", " ", "SLURM_PROCID", "6")));
        assertEquals("pe7.log", PeFileHandler.pattern("pe%p.log", Map.of("OMPI_COMM_WORLD_RANK", "7")));
        assertEquals("pe0.log", PeFileHandler.pattern("pe%p.log", Map.of()), "plain java: a job of one PE, PE 0");
    }

    @Test
    void julsOwnTokensStay() {
        assertEquals("%t/pe2-%u-%g%%p.log%", PeFileHandler.pattern("%t/pe%p-%u-%g%%p.log%", Map.of("JSHMEM_PE", "2")));
    }
}
