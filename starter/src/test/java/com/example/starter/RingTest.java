package com.example.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Runs {@link Ring} as a job of 4 PEs through the real bin/oshrun. */
class RingTest {
    private static final int NPES = 4;

    @Test
    void ringOfFourPes() throws Exception {
        Path classes = Path.of("target/classes").toAbsolutePath();
        Path out = Files.createTempFile("ring", ".out");
        try {
            Process p = new ProcessBuilder(oshrun(), "-np", String.valueOf(NPES), "--timeout", "120",
                    "-cp", classes.toString(), Ring.class.getName())
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            p.getOutputStream().close();
            assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the job did not end in 180 s");
            String output = Files.readString(out, StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), "oshrun exit status; output:\n" + output);
            for (int pe = 0; pe < NPES; pe++) {
                int from = (pe + NPES - 1) % NPES;
                assertTrue(output.contains("PE " + pe + " of " + NPES + " got " + from), output);
            }
            assertTrue(output.contains("sum " + NPES * (NPES - 1) / 2 + " ok"), output);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** bin/oshrun of -Djshmem.home (or $JSHMEM_HOME), else oshrun on the PATH. */
    private static String oshrun() throws IOException {
        String home = System.getProperty("jshmem.home", "");
        if (home.isBlank() || home.contains("${")) {
            home = System.getenv().getOrDefault("JSHMEM_HOME", "");
        }
        if (!home.isBlank()) {
            Path oshrun = Path.of(home, "bin", "oshrun");
            if (!Files.isExecutable(oshrun)) {
                throw new IOException(oshrun + " is not executable: -Djshmem.home must name a jshmem"
                        + " installation (the unpacked distribution or a built checkout)");
            }
            return oshrun.toString();
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "oshrun"))) {
                return Path.of(dir, "oshrun").toString();
            }
        }
        throw new IOException("no oshrun: run with -Djshmem.home=/path/to/jshmem (the unpacked distribution or a"
                + " built checkout), set JSHMEM_HOME, or put jshmem's bin/ on the PATH");
    }
}
