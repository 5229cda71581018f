/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.ForkSafetyReport;
import io.jshmem.ShmemVersion;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.Futex;
import io.jshmem.core.base.Setting;
import io.jshmem.core.base.Settings;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.transport.TransportProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bin/shmem-info --parsable}: the report as {@code section:key:value} lines, one per fact, for
 * scripts and bug reports (like {@code oshmem_info --parsable}). Values are raw (bytes, seconds,
 * names), never prose; a value may itself contain colons, the key never does. Each setting has a
 * {@code setting_source:} line too: default, environment or property. With {@code all},
 * also the network devices and every fork-safety finding.
 */
final class ParsableInfo {
    /** "tcp on eth0, lo" in a transport's description: a transport and its devices. */
    private static final Pattern DEVICE = Pattern.compile("\\s*(\\S+) on (.+)");
    private static final Pattern VERSION = Pattern.compile("\\S+ (\\S+) \\((\\S+)\\).*");

    private ParsableInfo() {
    }

    static List<String> lines(Config c, Settings s, ForkSafetyReport forkSafety, boolean all) {
        List<String> out = new ArrayList<>();
        out.add("version:jshmem:" + ShmemVersion.JSHMEM_VERSION);
        out.add("version:openshmem:" + ShmemVersion.SPEC_MAJOR + "." + ShmemVersion.SPEC_MINOR);
        out.add("version:vendor:" + ShmemVersion.VENDOR_STRING);
        out.add("version:java:" + Runtime.version());
        out.add("version:java_vm:" + s.property("java.vm.name"));
        String prefix = s.text(Setting.INSTALL_PREFIX);
        if (prefix != null) {
            out.add("path:prefix:" + prefix(prefix));
        }
        settings(s, out);
        out.add("heap:internal_bytes:" + SymmetricHeap.INTERNAL_SIZE);
        out.add("transport:shm:available:true");
        out.add("transport:shm:dir:" + c.shmDir());
        try {
            out.add("transport:shm:dir_available_bytes:" + Files.getFileStore(Path.of(c.shmDir())).getUsableSpace());
        } catch (IOException | RuntimeException e) {
            out.add("transport:shm:dir_problem:" + e.getMessage());
        }
        out.add("transport:shm:wait:" + (Futex.available() ? "futex" : "timer"));
        Optional<TransportProvider> provider = Transports.provider();
        if (provider.isEmpty()) {
            out.add("transport:network:available:false");
        }
        provider.ifPresent(p -> network(p, all, out));
        if (all) {
            out.add("forksafety:safe:" + forkSafety.safe());
            out.add("forksafety:summary:" + forkSafety.summary());
            out.add("forksafety:launch_mechanism:" + forkSafety.launchMechanism());
            for (ForkSafetyReport.Finding f : forkSafety.findings()) {
                out.add("forksafety:finding:" + key(f.name()) + ":" + f.effect().name().toLowerCase(Locale.ROOT) + ":"
                        + f.value());
            }
        }
        return out;
    }

    /**
     * One {@code setting:KEY:value} and one {@code setting_source:KEY:default|environment|property}
     * line per setting of the table, but those oshrun sets for its PEs (a property's key is its name).
     */
    private static void settings(Settings s, List<String> out) {
        for (Setting setting : Setting.values()) {
            if (setting.category() == Setting.Category.JOB || setting == Setting.INSTALL_PREFIX) {
                continue;
            }
            out.add("setting:" + setting.key() + ":" + Config.value(s, setting));
            out.add("setting_source:" + setting.key() + ":" + s.source(setting).label());
        }
    }

    /** The installation's directory, as bin/shmem-info gives it ({@code bin/..}), made absolute and normal. */
    static String prefix(String dir) {
        try {
            return Path.of(dir).toRealPath().toString();
        } catch (IOException | RuntimeException e) {
            return Path.of(dir).toAbsolutePath().normalize().toString();
        }
    }

    /** The provider's description, taken apart: version and library, devices (with {@code all}), notes. */
    private static void network(TransportProvider p, boolean all, List<String> out) {
        String name = p.name();
        List<String> description;
        try {
            description = p.describe();
        } catch (RuntimeException e) {
            description = List.of(name + ": unavailable: " + e.getMessage());
        }
        boolean available = true;
        List<String> rest = new ArrayList<>();
        for (String line : description) {
            String text = line.startsWith(name + ":") ? line.substring(name.length() + 1) : line;
            Matcher device = DEVICE.matcher(text);
            Matcher version = VERSION.matcher(text.strip());
            if (text.strip().startsWith("unavailable: ")) {
                available = false;
                rest.add("transport:" + name + ":unavailable_reason:" + text.strip().substring("unavailable: ".length()));
            } else if (device.matches()) {
                if (all) {
                    rest.add("transport:" + name + ":device:" + device.group(1) + ":" + device.group(2));
                }
            } else if (version.matches()) {
                rest.add("transport:" + name + ":version:" + version.group(1));
                rest.add("transport:" + name + ":library:" + version.group(2));
            } else {
                rest.add("transport:" + name + ":note:" + text.strip());
            }
        }
        out.add("transport:" + name + ":available:" + available);
        out.addAll(rest);
    }

    /** A finding's name as a key: "rdma devices" becomes "rdma_devices". */
    private static String key(String name) {
        return name.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
    }
}
