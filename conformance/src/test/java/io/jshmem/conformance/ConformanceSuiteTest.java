package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The conformance cases, run for real: one job through bin/oshrun per PE count and configuration
 * (2 and 4 PEs with every case; 4 PEs again with the dissemination sync and pull collectives forced;
 * 8 PEs with the barrier loop and the collectives; 4 PEs on two "hosts" joined by UCX with atomics
 * through UCX), one dynamic test per case and job asserting
 * that every PE reported PASS (a case that reports SKIP is a skipped test), plus one per job asserting
 * it exited with status 0.
 */
class ConformanceSuiteTest {
    private static final String RUNNER = "io.jshmem.conformance.CaseRunner";

    @TestFactory
    Stream<DynamicNode> cases() {
        // Default algorithms on shared memory: linear syncs on arrival words and push collectives; the
        // 4-PE job with the other algorithms forced (dissemination syncs, pull collectives).
        List<String> eight = AllCases.names().stream().filter(n -> n.equals("order.barrier-loop") || n.startsWith("coll.")).toList();
        return Stream.of(
                job(2, AllCases.names(), List.of(), List.of()),
                job(4, AllCases.names(), List.of(), List.of()),
                job(4, AllCases.names(), List.of(), List.of("-x", "JSHMEM_BARRIER_ALGORITHM=dissemination",
                        "-x", "JSHMEM_COLL_ALGORITHM=pull")),
                job(8, eight, List.of("order.barrier-loop", "coll."), List.of()),
                // Two "hosts" of 2 PEs (the cluster shape: shared memory on-node, UCX over TCP
                // off-node), with every atomic forced through UCX as on InfiniBand/RoCE.
                ucxJob(List.of("--host", "localhost:2,127.0.0.1:2", "-x", "UCX_TLS=tcp,self", "-x", "SHMEM_ATOMICS=transport")));
    }

    private static DynamicNode ucxJob(List<String> options) {
        String why = io.jshmem.conformance.spawn.Jobs.ucxUnavailable().orElse(null);
        if (why != null) {
            return DynamicTest.dynamicTest("4 PEs over UCX", () -> {
                System.out.println("ConformanceSuiteTest: the UCX job is skipped: " + why);
                Assumptions.abort(why);
            });
        }
        return job(4, AllCases.names(), List.of(), options);
    }

    /** The names --list prints are the registered cases, in order. */
    @Test
    void listPrintsEveryCase() throws Exception {
        Oshrun.Result r = Oshrun.runPlainJava(RUNNER, "--list");
        assertEquals(0, r.exitCode(), "CaseRunner --list" + r.tail());
        assertEquals(AllCases.names(), r.stdout().lines().toList(), "CaseRunner --list" + r.tail());
        assertTrue(AllCases.names().size() > 100, "only " + AllCases.names().size() + " cases registered");
    }

    private static DynamicContainer job(int npes, List<String> cases, List<String> filters, List<String> options) {
        SuiteJob job = new SuiteJob(npes, filters, options);
        List<DynamicNode> tests = new ArrayList<>();
        for (String name : cases) {
            tests.add(DynamicTest.dynamicTest(name + " @ " + npes + " PEs", () -> job.get().assertCase(name)));
        }
        tests.add(DynamicTest.dynamicTest("job exit status and summary @ " + npes + " PEs", () -> job.get().assertJob(cases)));
        return DynamicContainer.dynamicContainer(npes + " PEs" + (options.isEmpty() ? "" : " " + String.join(" ", options)), tests);
    }

    /** One CaseRunner job, started by the first test that needs it. */
    private static final class SuiteJob {
        private final int npes;
        private final List<String> filters;
        private final List<String> options;
        private Outcome outcome;

        SuiteJob(int npes, List<String> filters, List<String> options) {
            this.npes = npes;
            this.filters = filters;
            this.options = options;
        }

        synchronized Outcome get() throws Exception {
            if (outcome == null) {
                outcome = new Outcome(npes, Oshrun.run(npes, options, Oshrun.conformanceClasses(), RUNNER,
                        filters.toArray(String[]::new)));
            }
            return outcome;
        }
    }

    /** What a job reported, by case and PE. */
    private static final class Outcome {
        private final int npes;
        private final Oshrun.Result result;
        private final Map<String, Map<Integer, List<Oshrun.CaseLine>>> byCase = new LinkedHashMap<>();

        Outcome(int npes, Oshrun.Result result) {
            this.npes = npes;
            this.result = result;
            for (Oshrun.CaseLine line : result.caseLines()) {
                byCase.computeIfAbsent(line.name(), k -> new TreeMap<>()).computeIfAbsent(line.pe(), k -> new ArrayList<>()).add(line);
            }
        }

        void assertCase(String name) {
            Map<Integer, List<Oshrun.CaseLine>> perPe = byCase.getOrDefault(name, Map.of());
            List<String> problems = new ArrayList<>();
            for (int pe = 0; pe < npes; pe++) {
                List<Oshrun.CaseLine> lines = perPe.getOrDefault(pe, List.of());
                if (lines.isEmpty()) {
                    problems.add("PE " + pe + " reported nothing for this case");
                } else if (lines.size() > 1) {
                    problems.add("PE " + pe + " reported it " + lines.size() + " times: " + lines);
                } else if (lines.getFirst().result().equals("FAIL")) {
                    problems.add(lines.getFirst().toString());
                }
            }
            for (int pe : perPe.keySet()) {
                if (pe >= npes) {
                    problems.add("a report from PE " + pe + " in a job of " + npes + " PEs");
                }
            }
            if (!problems.isEmpty()) {
                fail("case " + name + " at " + npes + " PEs:\n  " + String.join("\n  ", problems) + result.tail());
            }
            // A case that skipped (on any PE, none failing) is reported as skipped, not as passed.
            perPe.values().stream().flatMap(List::stream).filter(l -> l.result().equals("SKIP")).findFirst()
                    .ifPresent(l -> Assumptions.abort("case " + name + " skipped at " + npes + " PEs on PE " + l.pe()
                            + (l.detail() == null ? "" : ": " + l.detail())));
        }

        void assertJob(List<String> expectedCases) {
            Set<String> unknown = byCase.keySet().stream().filter(n -> !expectedCases.contains(n)).collect(Collectors.toSet());
            assertTrue(unknown.isEmpty(), "reports of cases that are not registered: " + unknown + result.tail());
            boolean summary = result.stdout().lines().anyMatch(l -> l.matches(".*SUMMARY passed=\\d+ failed=0 skipped=\\d+.*"));
            assertTrue(summary, "no 'SUMMARY ... failed=0' line from PE 0" + result.tail());
            assertEquals(0, result.exitCode(), "exit status of the " + npes + "-PE job" + result.tail());
        }
    }
}
