/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The real 4-PE {@link ReportJob}, run once for all the test classes of this JVM through
 * {@code bin/oshrun -np 4 --jfr --jfr-dir DIR --report}, so that every check reads the same recordings.
 */
final class JobFixture {
    static final int NPES = 4;
    private static JobFixture job;

    final Path dir;
    final Commands.Result oshrun;
    final String id;
    final Path report;

    private JobFixture(Path dir, Commands.Result oshrun, String id) {
        this.dir = dir;
        this.oshrun = oshrun;
        this.id = id;
        this.report = dir.resolve(id + "-report.html");
    }

    static synchronized JobFixture get() throws IOException, InterruptedException {
        if (job == null) {
            Path work = Path.of("target", "report-test").toAbsolutePath();
            delete(work);
            Path dir = work.resolve("jfr");
            Commands.Result r = Commands.run(work, 300, Commands.bin("oshrun", "-np", Integer.toString(NPES), "--jfr",
                    "--jfr-dir", dir.toString(), "--report", "-cp", Path.of("target/test-classes").toAbsolutePath().toString(),
                    ReportJob.class.getName()));
            assertEquals(0, r.status(), "the job failed: " + r.err() + r.out());
            String id;
            try (Stream<Path> files = Files.list(dir)) {
                id = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("-pe0.jfr")).findFirst()
                        .orElseThrow(() -> new AssertionError("no recording of PE 0 in " + dir + ": " + r.err()))
                        .replace("-pe0.jfr", "");
            }
            job = new JobFixture(dir, r, id);
        }
        return job;
    }

    static void delete(Path p) throws IOException {
        if (Files.exists(p)) {
            try (Stream<Path> all = Files.walk(p)) {
                for (Path q : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(q);
                }
            }
        }
    }
}
