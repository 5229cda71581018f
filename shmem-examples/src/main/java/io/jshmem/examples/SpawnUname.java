/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.examples;

import io.jshmem.ForkSafetyReport;
import io.jshmem.Shmem;
import io.jshmem.SymByteArray;
import io.jshmem.SymType;
import io.jshmem.spawn.Spawn;
import io.jshmem.spawn.Subprocess;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The Chapel subprocess reproducer, in jshmem. On GASNet-ibv, after {@code spawn(["uname"])} Chapel
 * printed {@code Locales[1]} as {@code LOCALE0}: fork had made the registered pages copy-on-write,
 * and the parent lost the pages the network writes into. Here every PE writes a "locale" string
 * (its PE number and node) into symmetric memory; PE 0 reads every PE's string remotely, spawns
 * {@code uname -a} with its output piped, prints that output, waits for it, and reads every string
 * again: they must be identical, and each must name its own PE. Exit status 0 when they are.
 *
 * <pre>{@code bin/oshrun -np 4 -cp shmem-examples/target/classes io.jshmem.examples.SpawnUname}</pre>
 *
 * <p>The subprocess is started with {@link Spawn} (module shmem-spawn): posix_spawn semantics, no
 * copy of the parent's address space, the PE identity kept out of the child's environment, safe
 * even when the JVM was told to fork ({@code -Djdk.lang.Process.launchMechanism=FORK}).
 */
public final class SpawnUname {
    private static final int LOCALE_BYTES = 128;

    private SpawnUname() {
    }

    public static void main(String[] args) throws Exception {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            SymByteArray locale = shmem.calloc(SymType.BYTE, LOCALE_BYTES);
            byte[] mine = ("LOCALE" + me + " (PE " + me + " of " + n + " on " + hostname() + ")").getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < mine.length && i < LOCALE_BYTES - 1; i++) {
                locale.set(i, mine[i]);
            }
            shmem.barrierAll();

            int status = 0;
            if (me == 0) {
                ForkSafetyReport report = shmem.forkSafetyReport();
                System.out.println("fork safety: " + report.summary());
                List<String> before = readAll(shmem, locale);
                before.forEach(s -> System.out.println("before: " + s));

                Subprocess uname = Spawn.command("uname", "-a")
                        .stdin(Redirect.INHERIT).stdout(Redirect.PIPE).stderr(Redirect.INHERIT).start();
                String out = new String(uname.stdout().readAllBytes(), StandardCharsets.UTF_8).strip();
                int unameStatus = uname.waitFor();
                System.out.println("uname: " + out + " (exit status " + unameStatus + ")");

                List<String> after = readAll(shmem, locale);
                after.forEach(s -> System.out.println("after:  " + s));
                for (int pe = 0; pe < n; pe++) {
                    if (!after.get(pe).startsWith("LOCALE" + pe + " ")) {
                        System.out.println("WRONG: PE " + pe + "'s locale reads " + after.get(pe));
                        status = 1;
                    }
                }
                if (!after.equals(before)) {
                    System.out.println("MISMATCH: the locales changed across the spawn");
                    status = 1;
                }
                if (unameStatus != 0 || out.isEmpty()) {
                    System.out.println("uname failed");
                    status = 1;
                }
                System.out.println(status == 0 ? "OK: every locale identical before and after spawning uname" : "FAILED");
            }
            shmem.barrierAll();
            if (status != 0) {
                shmem.globalExit(status);
            }
        }
    }

    /** Every PE's locale string, read remotely with get. */
    private static List<String> readAll(Shmem shmem, SymByteArray locale) {
        List<String> all = new ArrayList<>();
        byte[] buf = new byte[LOCALE_BYTES];
        for (int pe = 0; pe < shmem.nPes(); pe++) {
            shmem.get(buf, 0, locale, 0, LOCALE_BYTES, pe);
            int len = 0;
            while (len < LOCALE_BYTES && buf[len] != 0) {
                len++;
            }
            all.add(new String(buf, 0, len, StandardCharsets.UTF_8));
        }
        return all;
    }

    private static String hostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException | RuntimeException e) {
            String h = System.getenv("HOSTNAME");
            return h == null ? "unknown" : h;
        }
    }
}
