/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import io.jshmem.core.base.ProcFs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A process tree written as files in the layout of /proc, for {@link ProcFs} with a test root. */
final class FakeProc {
    final Path root;
    final ProcFs fs;

    FakeProc(Path root) {
        this.root = root;
        this.fs = new ProcFs(root);
    }

    /**
     * Adds a process. {@code env} null: its environ cannot be read (another user's process).
     * {@code maps}: the path column of its mappings.
     */
    FakeProc process(long pid, long ppid, String comm, long startTicks, Map<String, String> env, String cmdline,
                     List<String> maps) {
        try {
            Path d = Files.createDirectories(root.resolve(Long.toString(pid)));
            StringBuilder stat = new StringBuilder().append(pid).append(" (").append(comm).append(") S ").append(ppid);
            for (int field = 5; field <= 21; field++) {
                stat.append(" 0");
            }
            stat.append(' ').append(startTicks).append(" 12345 67 18446744073709551615\n");
            Files.writeString(d.resolve("stat"), stat);
            if (env != null) {
                StringBuilder e = new StringBuilder();
                env.forEach((k, v) -> e.append(k).append('=').append(v).append('\0'));
                Files.writeString(d.resolve("environ"), e, StandardCharsets.UTF_8);
            }
            Files.writeString(d.resolve("cmdline"), cmdline.replace(' ', '\0') + "\0");
            StringBuilder m = new StringBuilder();
            m.append("55d0c0000000-55d0c0001000 r-xp 00000000 08:01 42                         /usr/bin/thing\n");
            m.append("7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]\n");
            m.append("7f0000002000-7f0000003000 rw-p 00000000 00:00 0 \n");
            long addr = 0x7f1000000000L;
            for (String path : maps) {
                m.append(String.format("%x-%x rw-s 00000000 00:1a 777                        %s%n", addr, addr + 4096, path));
                addr += 0x10000;
            }
            Files.writeString(d.resolve("maps"), m);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    FakeProc uptime(String text) {
        try {
            Files.createDirectories(root);
            Files.writeString(root.resolve("uptime"), text);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
