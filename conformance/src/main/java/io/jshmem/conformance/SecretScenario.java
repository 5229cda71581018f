/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * For FlightRecordingTest (run with {@code oshrun --jfr}): where the job's bootstrap secret is. Before
 * init each PE reads the file {@code JSHMEM_SECRET_FILE} names and prints {@code SECRET <hex> FILE <path>};
 * then it initializes jshmem twice (a re-initialization gets the secret from memory, the file being gone),
 * and each time prints {@code CHECK PE <k> INIT <n> <what>}, {@code <what>} being {@code clean} when
 * neither {@code /proc/self/environ} nor {@code System.getenv()} holds the secret or a
 * {@code JSHMEM_SECRET} variable and the file is gone, else what is left.
 */
public final class SecretScenario {
    private SecretScenario() {
    }

    public static void main(String[] args) throws Exception {
        String file = System.getenv("JSHMEM_SECRET_FILE");
        String secret = file == null ? null : Files.readString(Path.of(file)).strip();
        System.out.println("SECRET " + secret + " FILE " + file);
        for (int init = 1; init <= 2; init++) {
            try (Shmem shmem = Shmem.init()) {
                System.out.println("CHECK PE " + shmem.myPe() + " INIT " + init + " " + left(file, secret));
                shmem.barrierAll();
            }
        }
    }

    private static String left(String file, String secret) throws IOException {
        if (secret == null) {
            return "no-secret-file";
        }
        StringBuilder left = new StringBuilder();
        String environ = new String(Files.readAllBytes(Path.of("/proc/self/environ")), StandardCharsets.ISO_8859_1);
        if (environ.contains(secret)) {
            left.append("secret-in-proc-environ ");
        }
        if (Arrays.stream(environ.split("\0")).anyMatch(v -> v.startsWith("JSHMEM_SECRET="))) {
            left.append("JSHMEM_SECRET-in-proc-environ ");
        }
        Map<String, String> env = System.getenv();
        if (env.containsKey("JSHMEM_SECRET") || env.values().stream().anyMatch(v -> v.contains(secret))) {
            left.append("secret-in-getenv ");
        }
        if (Files.exists(Path.of(file))) {
            left.append("file-left ");
        }
        return left.isEmpty() ? "clean" : left.toString().strip();
    }
}
