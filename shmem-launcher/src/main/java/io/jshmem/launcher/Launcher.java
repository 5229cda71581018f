/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import io.jshmem.core.base.Setting;
import io.jshmem.core.base.Settings;
import io.jshmem.launcher.LaunchOptions.UsageException;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.nio.channels.spi.SelectorProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * oshrun's main class: parses the command line and runs the job. Started by {@code bin/oshrun},
 * which passes the PEs' java binary and jshmem's class path as system properties.
 */
public final class Launcher {
    /** The java binary for the PEs; default: the one running the launcher. */
    static final String JAVA_PROPERTY = Setting.LAUNCHER_JAVA.key();
    /**
     * jshmem's class path, appended to the program's; default: the launcher's own class path without
     * the launcher's jar or classes (PEs never load the launcher).
     */
    static final String CLASSPATH_PROPERTY = Setting.LAUNCHER_CLASSPATH.key();

    private Launcher() {
    }

    public static void main(String[] args) {
        prepareNetworking();
        System.exit(run(args, Settings.systemEnvironment()));
    }

    /**
     * Initializes, on another thread, what the bootstrap server's socket needs: the JDK's selector
     * provider (found by a service lookup that opens every jar of the class path) and its network
     * classes, ~10 ms that would otherwise delay the start of every PE. The command line is parsed
     * meanwhile; class initialization makes the main thread wait for whatever is not done yet.
     */
    private static void prepareNetworking() {
        Thread.ofPlatform().daemon().name("oshrun-net-init").start(() -> {
            try {
                SelectorProvider.provider();
                InetAddress.getLoopbackAddress();
            } catch (RuntimeException | Error e) {
                // the main thread meets it again, where it is reported
            }
        });
    }

    private static int localPes(List<HostList.Placement> placements) {
        int n = 0;
        for (HostList.Placement p : placements) {
            n += p.node().local() ? 1 : 0;
        }
        return n;
    }

    /** {@code classpath} without the entry this class was loaded from. */
    static String withoutLauncher(String classpath) {
        Path own;
        try {
            own = Path.of(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath().normalize();
        } catch (URISyntaxException | RuntimeException e) {
            return classpath;
        }
        List<String> kept = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator, -1)) {
            if (entry.isEmpty() || !Path.of(entry).toAbsolutePath().normalize().equals(own)) {
                kept.add(entry);
            }
        }
        return String.join(File.pathSeparator, kept);
    }

    static int run(String[] args, Map<String, String> env) {
        LaunchOptions options;
        List<String> command;
        List<HostList.Placement> placements;
        BootstrapEndpoint endpoint;
        AotCache aot;
        try {
            options = LaunchOptions.parse(List.of(args), env);
            switch (options.action()) {
                case HELP -> {
                    System.out.print(LaunchOptions.help());
                    return 0;
                }
                case VERSION -> {
                    System.out.println(LaunchOptions.version());
                    return 0;
                }
                case RUN -> {
                    // below
                }
            }
            if (options.output().directory() != null) {
                OwnDirectory.prepare(Path.of(options.output().directory()), "--output-filename");
            }
            String jfrDir = options.jfrDirectory();
            if (jfrDir != null) {
                // Made here, before the PEs, whose JVMs would make it with the umask's mode.
                OwnDirectory.privateSubdirectory(OwnDirectory.prepare(Path.of(jfrDir), "--jfr-dir"),
                        PeCommand.JFR_REPOSITORY, "--jfr-dir");
            }
            String java = java();
            String classpath = Settings.system().text(Setting.LAUNCHER_CLASSPATH);
            if (classpath == null) {
                classpath = withoutLauncher(System.getProperty("java.class.path"));
            }
            // The cache is for the class path. This JVM's own class path adds the launcher's jar,
            // which the PEs' (jshmem's, from bin/oshrun) leaves out.
            aot = options.module() == null ? AotCache.of(java, classpath, System.getProperty("java.class.path"), env) : null;
            command = PeCommand.build(options, java, classpath, env, aot);
            placements = options.multiHost()
                    ? HostList.place(options.hosts(), options.npes(), options.oversubscribe(),
                            options.mapping().mapBy().equals("node"))
                    : HostList.localOnly(options.npes());
            // With a host list its slots say how many PEs a host takes; on this machine alone, its CPUs.
            String sharing = CoreBinding.sharing(localPes(placements), CoreBinding.allowedCpus().size(),
                    options.oversubscribe() || options.multiHost());
            if (sharing != null && !options.output().quiet()) {
                System.err.println(sharing);
            }
            endpoint = BootstrapEndpoint.choose(options.bootstrapAddress(),
                    HostList.nodes(placements));
        } catch (UsageException e) {
            System.err.println("oshrun: " + e.getMessage());
            System.err.println("see oshrun --help");
            return 2;
        }
        Job job = new Job(options, command, placements, endpoint, env);
        int status = job.run();
        removeJfrRepository(options, job.localPids());
        if (options.report()) {
            JobReport.write(options.jfrDirectory(), job.jobId());
        }
        if (status == 0 && aot != null && aot.missing()) {
            if (!options.output().quiet()) {
                System.err.println(AotCache.NOTICE);
            }
            aot.createIfMissing(); // once per installation and JDK: later jobs start faster
        }
        return status;
    }

    /** The PEs' java command: {@code -Djshmem.java} (bin/oshrun's), else this JVM's. */
    static String java() {
        return Settings.system().text(Setting.LAUNCHER_JAVA, Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * JFR removes its chunks at exit, not the repository: the chunk directories of this job's PEs
     * ({@code <time>_<pid>}, left by a PE killed by a signal) go, then the repository when empty
     * (another job recording into the same directory may still use it).
     */
    private static void removeJfrRepository(LaunchOptions options, Set<Long> pids) {
        String dir = options.jfrDirectory();
        if (dir == null) {
            return;
        }
        Path repository = Path.of(dir, PeCommand.JFR_REPOSITORY);
        try (Stream<Path> chunks = Files.list(repository)) {
            for (Path d : chunks.toList()) {
                String name = d.getFileName().toString();
                if (pids.stream().anyMatch(pid -> name.endsWith("_" + pid))) {
                    OwnDirectory.deleteTree(d);
                }
            }
            Files.deleteIfExists(repository);
        } catch (IOException | RuntimeException kept) {
            // no repository, or in use by another job
        }
    }
}
