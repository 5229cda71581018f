/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.conformance.spawn.Jobs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Native bindings cost start-up CPU only where they are used: read from each PE's class-loading
 * log (-Xlog:class+load). A shared-memory job loads nothing of the UCX transport (no libucp, no
 * downcall linking: each call shape linked spins a stub class, ~10 ms of CPU per PE that the
 * ahead-of-time cache cannot hold).
 */
class NativeBindingsTest {
    @TempDir
    Path tmp;

    /** Each PE's loaded class names, from the logs the job wrote into {@code tmp}. */
    private List<List<String>> run(List<String> options) throws Exception {
        List<String> opts = new ArrayList<>(List.of("--jvm-opt", "-Xlog:class+load=info:file=" + tmp.resolve("pe-%p.log")));
        opts.addAll(options);
        Oshrun.Result r = Oshrun.run(2, opts, Oshrun.examplesClasses(), "io.jshmem.examples.Hello");
        assertEquals(0, r.exitCode(), r.tail());
        assertEquals(2, r.stdout().lines().filter(l -> l.startsWith("Hello from PE")).count(), r.tail());
        List<List<String>> pes = new ArrayList<>();
        try (Stream<Path> logs = Files.list(tmp)) {
            for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("pe-")).sorted().toList()) {
                pes.add(classes(log));
            }
        }
        assertEquals(2, pes.size(), "one class-loading log per PE" + r.tail());
        return pes;
    }

    private static List<String> classes(Path log) throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            // [0.012s][info][class,load] java.lang.Object source: shared objects file
            int at = line.indexOf("[class,load] ");
            if (at >= 0) {
                String rest = line.substring(at + "[class,load] ".length());
                int space = rest.indexOf(' ');
                names.add(space < 0 ? rest : rest.substring(0, space));
            }
        }
        return names;
    }

    @Test
    void sharedMemoryJobLoadsNothingOfUcx() throws Exception {
        for (List<String> pe : run(List.of("-x", "SHMEM_TRANSPORT=auto"))) {
            assertTrue(pe.contains("io.jshmem.examples.Hello"), "the log is a PE's");
            assertFalse(pe.stream().anyMatch(c -> c.startsWith("io.jshmem.ucx.")),
                    "a shared-memory PE loaded UCX transport classes: "
                            + pe.stream().filter(c -> c.startsWith("io.jshmem.ucx.")).toList());
        }
    }

    /** The same check sees the transport when a job does use it (else the test above proves nothing). */
    @Test
    void ucxJobLoadsTheBindings() throws Exception {
        Jobs.assumeUcx("NativeBindingsTest.ucxJobLoadsTheBindings");
        for (List<String> pe : run(List.of("-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self"))) {
            assertTrue(pe.contains("io.jshmem.ucx.Ucp"), "the job used the UCX transport");
        }
    }
}
