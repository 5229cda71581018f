/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Collective calls that do not match end the job, without SHMEM_DEBUG, naming both sides; no PE
 * gets past the mismatched call, but for a broadcast root, which waits for no one
 * ({@link MismatchScenarios}, 4 PEs through the real launcher).
 */
class MismatchTest {
    private static final String SCENARIOS = "io.jshmem.conformance.MismatchScenarios";

    @ParameterizedTest
    @CsvSource({
        "reduce-vs-barrier, barrier/sync, a reduction, false",
        "malloc-sizes, malloc/calloc/align/realloc/free, with different arguments, false",
        "split-triplets, a team split, with different arguments, false",
        "split-2d-vs-strided, a team split, with different arguments, false",
        "finalize-vs-barrier, barrier/sync, finalize, false",
        "large-alltoall-vs-barrier, barrier/sync, alltoall(s), false",
        // Each root returns from its broadcast without waiting for anyone: the mismatch shows at the
        // next operation in which the PEs wait for each other (the barrier after it).
        "broadcast-roots, barrier/sync, after an earlier collective call that did not match, true",
        // The finalizing PE gets past its finalize (matched by the broadcast); the others' next wait ends the job.
        "finalize-vs-root-broadcast, barrier/sync, finalize (it will never join, true"})
    void mismatchedCollectivesEndTheJobNamingBothSides(String scenario, String one, String other, boolean rootsGetPast)
            throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of(), Oshrun.conformanceClasses(), SCENARIOS, scenario);
        assertNotEquals(0, r.exitCode(), scenario + r.tail());
        String err = r.stderr();
        assertTrue(err.lines().anyMatch(l -> l.startsWith("oshrun:") && l.contains("collective calls do not match")
                && l.contains(one) && l.contains(other) && l.matches(".*PE \\d.*PE \\d.*")),
                scenario + ": oshrun does not report the mismatch naming both sides" + r.tail());
        if (!rootsGetPast) {
            assertFalse(r.stdout().contains("PAST"), scenario + ": a PE got past the mismatched call" + r.tail());
        }
        if (other.equals("with different arguments")) {
            assertDifferentArgumentsNamed(err, scenario.startsWith("split") ? "(split_strided start|split_2d xrange)" : "bytes",
                    scenario + r.tail());
        }
    }

    /**
     * The same with the dissemination sync (the one of teams of more than 8 PEs on a node), whose
     * waits check the members they wait for: a member that finalized while the others' broadcast let
     * it through used to leave them waiting in the next barrier for ever.
     */
    @ParameterizedTest
    @CsvSource({
        "finalize-vs-root-broadcast, barrier/sync, finalize (it will never join",
        "finalize-vs-barrier, barrier/sync, finalize",
        "reduce-vs-barrier, barrier/sync, a reduction"})
    void mismatchesEndTheJobWithTheDisseminationSync(String scenario, String one, String other) throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of("-x", "JSHMEM_BARRIER_ALGORITHM=dissemination"), Oshrun.conformanceClasses(),
                SCENARIOS, scenario);
        assertNotEquals(0, r.exitCode(), scenario + r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("oshrun:") && l.contains("collective calls do not match")
                && l.contains(one) && l.contains(other) && l.matches(".*PE \\d.*PE \\d.*")),
                scenario + ": oshrun does not report the mismatch naming both sides" + r.tail());
    }

    /**
     * Without SHMEM_DEBUG the message of calls with different arguments gives the reporting PE's
     * own arguments ("PE 2 passed bytes 64") and says how to see both sides'.
     */
    private static void assertDifferentArgumentsNamed(String err, String firstArgument, String context) {
        assertTrue(err.lines().anyMatch(l -> l.startsWith("oshrun:") && l.contains("with different arguments")
                && l.matches(".*PE \\d+ passed " + firstArgument + " \\d+.*")
                && l.contains("(set SHMEM_DEBUG=1 for both sides' arguments)")),
                "the mismatch message does not name this PE's arguments and the SHMEM_DEBUG hint" + context);
    }

    /**
     * The scalar reductions (Java conveniences) are collectives like the others: against a barrier,
     * or against the array form of the same reduction (which moves its data through other
     * memory), the job ends naming both sides (on shared memory) and this PE's arguments; on
     * shared memory and with every peer over UCX.
     */
    @ParameterizedTest
    @CsvSource({
        "scalar-reduce-vs-barrier, false, barrier/sync, a reduction",
        "scalar-vs-array-reduce, false, a reduction, with different arguments",
        "scalar-reduce-vs-barrier, true, barrier/sync, a reduction",
        // Over UCX team PE 0 may see it first in the count of the data pushed to it, which does
        // not say from whom: "a member that sent it data ... passed other arguments (...)".
        "scalar-vs-array-reduce, true, a reduction, arguments (size, count, root or type)"})
    void mismatchedScalarReductionsEndTheJob(String scenario, boolean ucx, String one, String other) throws Exception {
        if (ucx) {
            String why = io.jshmem.conformance.spawn.Jobs.ucxUnavailable().orElse(null);
            Assumptions.assumeTrue(why == null, () -> "UCX: " + why);
        }
        Oshrun.Result r = Oshrun.run(4, ucx ? List.of("-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self") : List.of(),
                Oshrun.conformanceClasses(), SCENARIOS, scenario);
        assertNotEquals(0, r.exitCode(), scenario + r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("oshrun:") && l.contains("collective calls do not match")
                && l.contains(one) && l.contains(other) && (ucx || l.matches(".*PE \\d.*PE \\d.*"))),
                scenario + ": oshrun does not report the mismatch" + r.tail());
        assertFalse(r.stdout().contains("PAST"), scenario + ": a PE got past the mismatched call" + r.tail());
        if (other.equals("with different arguments")) {
            assertDifferentArgumentsNamed(r.stderr(), "nelems", scenario + r.tail());
        }
    }

    /**
     * The same with every peer over UCX, where 4 PEs sync through team PE 0 (central): the counters
     * at PE 0 and the members' arrival words show the mismatch, and nobody gets past it.
     */
    @ParameterizedTest
    @CsvSource({
        "reduce-vs-barrier, barrier/sync, a reduction",
        "malloc-sizes, malloc/calloc/align/realloc/free, with different arguments",
        "split-triplets, a team split, with different arguments"})
    void mismatchedCollectivesAcrossNodesEndTheJob(String scenario, String one, String other) throws Exception {
        String why = io.jshmem.conformance.spawn.Jobs.ucxUnavailable().orElse(null);
        Assumptions.assumeTrue(why == null, () -> "UCX: " + why);
        Oshrun.Result r = Oshrun.run(4, List.of("-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self"), Oshrun.conformanceClasses(),
                SCENARIOS, scenario);
        assertNotEquals(0, r.exitCode(), scenario + r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("oshrun:") && l.contains("collective calls do not match")
                && l.contains(one) && l.contains(other)), scenario + ": oshrun does not report the mismatch" + r.tail());
        assertFalse(r.stdout().contains("PAST"), scenario + ": a PE got past the mismatched call" + r.tail());
        if (other.equals("with different arguments")) {
            assertDifferentArgumentsNamed(r.stderr(), scenario.startsWith("split") ? "split_strided start" : "bytes",
                    scenario + r.tail());
        }
    }

    /**
     * Across nodes a large broadcast's root pushes into the members' dest once they say they
     * entered the call: it must see there that they called it with another size, end the job and
     * get past nothing (every peer over UCX).
     */
    @Test
    void aLargeBroadcastWithOtherSizesEndsTheJobBeforeTheRootPushes() throws Exception {
        String why = io.jshmem.conformance.spawn.Jobs.ucxUnavailable().orElse(null);
        Assumptions.assumeTrue(why == null, () -> "UCX: " + why);
        Oshrun.Result r = Oshrun.run(4, List.of("-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self"), Oshrun.conformanceClasses(),
                SCENARIOS, "large-broadcast-sizes");
        assertNotEquals(0, r.exitCode(), r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("oshrun:") && l.contains("collective calls do not match")
                && l.contains("called broadcast while PE") && l.contains("with different arguments")),
                "oshrun does not report the mismatch" + r.tail());
        assertFalse(r.stdout().contains("PAST"), "a PE got past the mismatched broadcast" + r.tail());
        assertDifferentArgumentsNamed(r.stderr(), "nbytes", r.tail());
    }
}
