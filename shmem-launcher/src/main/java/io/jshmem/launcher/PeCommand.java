/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import io.jshmem.core.base.LaunchEnv;
import io.jshmem.core.base.NativeAccess;
import io.jshmem.launcher.LaunchOptions.UsageException;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;

/** Builds the command line that starts a PE's JVM; the same for every PE (they differ by environment). */
final class PeCommand {
    /**
     * Several PE JVMs share a node: the serial collector keeps each from starting a GC thread per
     * core. Dropped when the user picks a collector, since the JVM rejects two.
     */
    private static final String DEFAULT_GC = "-XX:+UseSerialGC";
    private static final Pattern SELECTS_GC = Pattern.compile("-XX:\\+Use\\w*GC");
    /**
     * The JIT compiles a method after twice the JVM's default invocation and loop counts. At
     * start-up a PE's compiler threads mostly compile code that runs only then (the JDK's
     * generation of method-handle and call-site classes, init itself); where PEs share the cores
     * that work delays every PE: a 4-PE hello world on 2 cores (12 alternating runs, medians)
     * 0.62 -> 0.56 s, 1.10 -> 1.00 CPU-s. A hot method reaches C2 a few milliseconds later. A
     * CompileThresholdScaling of the user's comes later on the command line, and wins.
     */
    static final String JIT_THRESHOLDS = "-XX:CompileThresholdScaling=2";
    /** The runtime maps shared memory and calls native transports through the FFM API. */
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    /** The same on the module path: jshmem's modules that call native code, and the class path's code. */
    private static final String NATIVE_ACCESS_MODULES = "--enable-native-access=" + NativeAccess.MODULES + ",ALL-UNNAMED";

    private PeCommand() {
    }

    /**
     * {@code java <default opts> <--jvm-opt values> <$JSHMEM_JAVA_OPTS> -cp <program cp>:<jshmem cp> Main args}.
     *
     * @param java            the java binary for the PEs
     * @param jshmemClasspath jshmem's own classes, appended to the program's class path
     * @param env             oshrun's environment (JSHMEM_JAVA_OPTS, CLASSPATH)
     * @param aot             the ahead-of-time cache for the PEs, or null: when given, its options
     *                        come first and jshmem's class path precedes the program's
     * @throws UsageException if the -jar file cannot be read or names no Main-Class
     */
    static List<String> build(LaunchOptions options, String java, String jshmemClasspath, Map<String, String> env,
                              AotCache aot) throws UsageException {
        List<String> jvmOptions = new ArrayList<>(options.jvmOptions());
        String javaOpts = env.getOrDefault(LaunchEnv.JAVA_OPTS, "").strip();
        if (!javaOpts.isEmpty()) {
            jvmOptions.addAll(Arrays.asList(javaOpts.split("\\s+")));
        }

        List<String> command = new ArrayList<>();
        command.add(java);
        if (jvmOptions.stream().noneMatch(SELECTS_GC.asMatchPredicate())) {
            command.add(DEFAULT_GC);
        }
        command.add(JIT_THRESHOLDS);
        String jfrRepository = jfrRepository(options);
        if (jfrRepository != null) {
            command.add(jfrRepository);
        }
        if (options.module() != null) {
            return modular(command, options, jshmemClasspath, jvmOptions);
        }
        command.add(NATIVE_ACCESS);
        if (aot != null) {
            command.addAll(aot.jvmOptions());
        }
        command.addAll(jvmOptions);

        List<String> classpath = new ArrayList<>();
        if (aot != null) {
            classpath.add(jshmemClasspath); // the cache's class path must be a prefix of the run's
        }
        String mainClass;
        if (options.jar() != null) {
            mainClass = mainClassOf(options.jar());
            classpath.add(options.jar());
            if (options.classpath() != null) {
                classpath.add(options.classpath());
            }
        } else {
            mainClass = options.mainClass();
            // As java does: -cp, else $CLASSPATH, else the current directory.
            String userClasspath = options.classpath() != null ? options.classpath() : env.get("CLASSPATH");
            classpath.add(userClasspath == null || userClasspath.isEmpty() ? "." : userClasspath);
        }
        if (aot == null && !jshmemClasspath.isEmpty()) {
            classpath.add(jshmemClasspath);
        }
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classpath));
        command.add(mainClass);
        command.addAll(options.programArgs());
        return command;
    }

    /**
     * {@code java <default opts> <native access for jshmem's modules> <--jvm-opt> <$JSHMEM_JAVA_OPTS>
     * --module-path <jshmem>:<program's> --add-modules <jshmem's> [-cp <program cp>] -m module[/class] args}.
     * jshmem's modules come first so that copies an application ships do not replace the installation's;
     * they are all resolved so that the native-access flag names no unknown module.
     */
    private static List<String> modular(List<String> command, LaunchOptions options, String jshmemModulePath,
                                        List<String> jvmOptions) {
        command.add(NATIVE_ACCESS_MODULES);
        command.addAll(jvmOptions);
        List<String> modulePath = new ArrayList<>();
        if (!jshmemModulePath.isEmpty()) {
            modulePath.add(jshmemModulePath);
        }
        if (options.modulePath() != null) {
            modulePath.add(options.modulePath());
        }
        if (!modulePath.isEmpty()) {
            command.add("--module-path");
            command.add(String.join(File.pathSeparator, modulePath));
        }
        command.add("--add-modules");
        command.add(NativeAccess.MODULES);
        if (options.classpath() != null) {
            command.add("-cp");
            command.add(options.classpath());
        }
        command.add("-m");
        command.add(options.module());
        command.addAll(options.programArgs());
        return command;
    }

    /** JFR's repository in the recordings' directory (see {@link #jfrRepository}). */
    static final String JFR_REPOSITORY = io.jshmem.core.base.Flight.REPOSITORY;

    /**
     * With --jfr: JFR's repository, where a recording's chunks are written while it runs (by default a
     * directory of java.io.tmpdir with the umask's modes, i.e. readable by every local user), is a
     * 0700 directory in the recordings' own (made by oshrun and by each PE; JFR writes its chunks
     * with the umask's modes, and they hold the PE's environment); JFR removes the chunks at exit. A
     * -XX:FlightRecorderOptions of the user's comes later and wins. Null without --jfr, or for a
     * directory whose name the option cannot carry (a comma separates its suboptions).
     */
    private static String jfrRepository(LaunchOptions options) {
        String dir = options.jfrDirectory();
        if (dir == null || dir.contains(",")) {
            return null;
        }
        return "-XX:FlightRecorderOptions:repository=" + java.nio.file.Path.of(dir).resolve(JFR_REPOSITORY);
    }

    private static String mainClassOf(String jar) throws UsageException {
        try (JarFile file = new JarFile(jar)) {
            Manifest manifest = file.getManifest();
            String mainClass = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (mainClass == null || mainClass.isBlank()) {
                throw new UsageException(jar + " has no Main-Class in its manifest");
            }
            return mainClass.strip();
        } catch (IOException e) {
            throw new UsageException("cannot read jar " + jar + ": " + e.getMessage());
        }
    }
}
