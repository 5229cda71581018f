/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Many cases in one job: a program whose PEs report one line per case becomes one JUnit test per
 * case, so a suite of hundreds of cases costs one job rather than one job per case (what
 * {@link ShmemTest} would cost). Each PE prints, for each case it runs, a line made by
 * {@link #passed}, {@link #failed} or {@link #skipped}:
 * {@code CASE <name> PE <k> PASS}, {@code ... FAIL <why>} or {@code ... SKIP <why>}.
 *
 * <p>{@link #job} returns a {@link DynamicContainer} for a {@code @TestFactory}: the job starts
 * (through the real {@code bin/oshrun}, configured as for {@link ShmemTest}) when its first test
 * runs. A case's test fails, naming the PEs and their messages, when a PE reports FAIL, reports
 * nothing or reports twice; is skipped (not passed) when a PE reports SKIP and none fails; passes
 * otherwise. A last test checks the job: exit status 0 and no report of a case not listed.
 */
public final class ShmemCases {
    private static final Pattern LINE = Pattern.compile("CASE (\\S+) PE (\\d+) (PASS|FAIL|SKIP)(?: (.*))?");
    /** Job output lines shown in a failure message. */
    private static final int TAIL_LINES = 40;

    private ShmemCases() {
    }

    /**
     * The report line of a case that passed on this PE.
     *
     * @param name the case's name (no whitespace)
     * @param pe   this PE's number
     * @return the line to print
     */
    public static String passed(String name, int pe) {
        return "CASE " + name + " PE " + pe + " PASS";
    }

    /**
     * The report line of a case that failed on this PE.
     *
     * @param name the case's name (no whitespace)
     * @param pe   this PE's number
     * @param why  what went wrong (one line)
     * @return the line to print
     */
    public static String failed(String name, int pe, String why) {
        return "CASE " + name + " PE " + pe + " FAIL " + oneLine(why);
    }

    /**
     * The report line of a case that this PE skipped.
     *
     * @param name the case's name (no whitespace)
     * @param pe   this PE's number
     * @param why  why it was skipped (one line)
     * @return the line to print
     */
    public static String skipped(String name, int pe, String why) {
        return "CASE " + name + " PE " + pe + " SKIP " + oneLine(why);
    }

    private static String oneLine(String s) {
        return String.valueOf(s).replace('\n', ' ').replace('\r', ' ');
    }

    /**
     * One job of {@code npes} PEs running {@code mainClass}, as tests: one per case, then one for the job.
     *
     * @param displayName    the container's name, e.g. {@code "4 PEs"}
     * @param npes           the number of PEs
     * @param oshrunOptions  extra oshrun options, e.g. {@code -x VAR=VALUE}
     * @param timeoutSeconds after which oshrun ends the job
     * @param mainClass      the program every PE runs (on the test JVM's class path, or
     *                       {@code jshmem.test.classpath})
     * @param args           its arguments
     * @param cases          the names of the cases the PEs report, in order
     * @return the tests
     */
    public static DynamicContainer job(String displayName, int npes, List<String> oshrunOptions, int timeoutSeconds,
                                       String mainClass, List<String> args, List<String> cases) {
        Run run = new Run(npes, List.copyOf(oshrunOptions), timeoutSeconds, mainClass, List.copyOf(args));
        List<DynamicNode> tests = new ArrayList<>();
        for (String name : cases) {
            tests.add(DynamicTest.dynamicTest(name + " @ " + npes + " PEs", () -> run.outcome().checkCase(name)));
        }
        tests.add(DynamicTest.dynamicTest("job exit status @ " + npes + " PEs", () -> run.outcome().checkJob(cases)));
        return DynamicContainer.dynamicContainer(displayName, tests);
    }

    /** The job, started by the first test that needs it. */
    private static final class Run {
        private final int npes;
        private final List<String> options;
        private final int timeoutSeconds;
        private final String mainClass;
        private final List<String> args;
        private Outcome outcome;

        Run(int npes, List<String> options, int timeoutSeconds, String mainClass, List<String> args) {
            this.npes = npes;
            this.options = options;
            this.timeoutSeconds = timeoutSeconds;
            this.mainClass = mainClass;
            this.args = args;
        }

        synchronized Outcome outcome() throws IOException, InterruptedException {
            if (outcome == null) {
                List<String> command = new ArrayList<>(List.of(ShmemJobExtension.oshrun(), "-np", String.valueOf(npes),
                        "--timeout", String.valueOf(timeoutSeconds)));
                command.addAll(options);
                command.addAll(List.of("-cp", ShmemJobExtension.classPath(), mainClass));
                command.addAll(args);
                Path out = Files.createTempFile("jshmem-cases", ".out");
                try {
                    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
                    pb.environment().put("JAVA_HOME", System.getProperty("java.home")); // oshrun and the PEs: this JDK
                    Process p = pb.start();
                    p.getOutputStream().close();
                    int status;
                    if (p.waitFor(timeoutSeconds + 60L, TimeUnit.SECONDS)) {
                        status = p.exitValue();
                    } else {
                        p.descendants().forEach(ProcessHandle::destroyForcibly);
                        p.destroyForcibly();
                        p.waitFor(10, TimeUnit.SECONDS);
                        status = -1;
                    }
                    outcome = new Outcome(npes, command, status, Files.readString(out, StandardCharsets.UTF_8));
                } finally {
                    Files.deleteIfExists(out);
                }
            }
            return outcome;
        }
    }

    /** One report line. */
    private record Report(int pe, String result, String detail) {
        @Override
        public String toString() {
            return "PE " + pe + " " + result + (detail.isEmpty() ? "" : ": " + detail);
        }
    }

    /** What the job reported, by case and PE. */
    private record Outcome(int npes, List<String> command, int status, String output,
                           Map<String, Map<Integer, List<Report>>> byCase) {
        Outcome(int npes, List<String> command, int status, String output) {
            this(npes, command, status, output, new LinkedHashMap<>());
            for (String line : output.lines().toList()) {
                Matcher m = LINE.matcher(line);
                if (m.find()) {
                    byCase.computeIfAbsent(m.group(1), k -> new TreeMap<>())
                            .computeIfAbsent(Integer.parseInt(m.group(2)), k -> new ArrayList<>())
                            .add(new Report(Integer.parseInt(m.group(2)), m.group(3), m.group(4) == null ? "" : m.group(4)));
                }
            }
        }

        void checkCase(String name) {
            Map<Integer, List<Report>> perPe = byCase.getOrDefault(name, Map.of());
            List<String> problems = new ArrayList<>();
            for (int pe = 0; pe < npes; pe++) {
                List<Report> reports = perPe.getOrDefault(pe, List.of());
                if (reports.isEmpty()) {
                    problems.add("PE " + pe + " reported nothing");
                } else if (reports.size() > 1) {
                    problems.add("PE " + pe + " reported it " + reports.size() + " times: " + reports);
                } else if (reports.getFirst().result().equals("FAIL")) {
                    problems.add(reports.getFirst().toString());
                }
            }
            perPe.keySet().stream().filter(pe -> pe >= npes)
                    .forEach(pe -> problems.add("a report from PE " + pe + " in a job of " + npes + " PEs"));
            if (!problems.isEmpty()) {
                throw new AssertionFailedError("case " + name + " at " + npes + " PEs: " + String.join("; ", problems) + tail());
            }
            perPe.values().stream().flatMap(List::stream).filter(r -> r.result().equals("SKIP")).findFirst()
                    .ifPresent(r -> {
                        throw new TestAbortedException("case " + name + " skipped at " + npes + " PEs on " + r);
                    });
        }

        void checkJob(List<String> cases) {
            List<String> unknown = byCase.keySet().stream().filter(n -> !cases.contains(n)).toList();
            if (!unknown.isEmpty()) {
                throw new AssertionFailedError("reports of cases that are not listed: " + unknown + tail());
            }
            if (status != 0) {
                throw new AssertionFailedError("the job of " + npes + " PEs failed (oshrun exit status " + status
                        + (status == 124 ? ": timed out" : status == -1 ? ": oshrun did not end" : "") + ")\n"
                        + String.join(" ", command) + tail());
            }
        }

        /** The end of the job's output, without the report lines of cases that passed. */
        String tail() {
            List<String> lines = output.lines().filter(l -> !(LINE.matcher(l).find() && l.contains(" PASS"))).toList();
            return "\n--- job output (last " + Math.min(TAIL_LINES, lines.size()) + " lines but passes) ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        }
    }
}
