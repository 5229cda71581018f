/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.spawn;

import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;

/** Run by {@link SpawnTest#forkingJvm()} in a JVM with {@code -Djdk.lang.Process.launchMechanism=FORK}. */
public final class ForkingJvmMain {
    private ForkingJvmMain() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("default " + Spawn.defaultMechanism());
        try (Subprocess p = Spawn.command("echo", "hello").stdin(Redirect.INHERIT).start()) {
            System.out.println("auto " + p.mechanism() + " " + new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8).strip());
            p.waitFor();
        }
        try (Subprocess p = Spawn.command("echo", "hello").stdin(Redirect.INHERIT).mechanism(Spawn.Mechanism.PROCESS_BUILDER).start()) {
            System.out.println("forced " + p.mechanism() + " " + new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8).strip());
            p.waitFor();
        } catch (SpawnException e) {
            System.out.println("refused PROCESS_BUILDER: " + e.getMessage());
        }
    }
}
