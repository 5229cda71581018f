/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.test;

import io.jshmem.Shmem;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Runs a {@link ShmemTest} method as a job of N PEs instead of in the test JVM: starts
 * {@code oshrun -np N --tag-output -cp <class path> io.jshmem.test.PeMain <class> <method>} and turns
 * the PEs' outcomes into the test's (passed, failed naming the PE, or skipped).
 */
public final class ShmemJobExtension implements InvocationInterceptor, ParameterResolver {
    /** Creates the extension (JUnit does, through {@link ShmemTest}). */
    public ShmemJobExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == Shmem.class;
    }

    /** In the test JVM the method is not called: the PEs get their own handle. */
    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return null;
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                    ExtensionContext extensionContext) throws Throwable {
        invocation.skip();
        Method method = invocationContext.getExecutable();
        ShmemTest config = method.getAnnotation(ShmemTest.class);
        if (config == null) {
            throw new IllegalStateException(method + " is not annotated @ShmemTest");
        }
        Class<?> testClass = extensionContext.getRequiredTestClass();
        Job job = run(testClass, method, config);
        job.check();
    }

    private static Job run(Class<?> testClass, Method method, ShmemTest config) throws IOException, InterruptedException {
        if (config.npes() < 1) {
            throw new IllegalArgumentException("@ShmemTest(npes = " + config.npes() + "): needs at least 1 PE");
        }
        List<String> command = new ArrayList<>();
        command.add(oshrun());
        // --oversubscribe: a test may well run more PEs than a CI machine has CPUs (oshrun refuses over
        // 8 a CPU without it, which on the command line is more likely a typo than a plan).
        command.addAll(List.of("-np", String.valueOf(config.npes()), "--tag-output", "--oversubscribe",
                "--timeout", String.valueOf(config.timeoutSeconds())));
        for (String e : config.env()) {
            command.addAll(List.of("-x", e));
        }
        for (String o : config.jvmOptions()) {
            command.addAll(List.of("--jvm-opt", o));
        }
        command.addAll(List.of("-cp", classPath(), PeMain.class.getName(), testClass.getName(), method.getName()));

        Path out = Files.createTempFile("jshmem-test", ".out");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            p.getOutputStream().close();
            long limit = config.timeoutSeconds() + 60L;
            if (!p.waitFor(limit, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                return new Job(command, config.npes(), -1, Files.readString(out, StandardCharsets.UTF_8));
            }
            return new Job(command, config.npes(), p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The launcher: jshmem.test.oshrun, else jshmem's bin/oshrun of jshmem.home, $JSHMEM_HOME or the PATH. */
    static String oshrun() {
        return LauncherLocator.oshrun(System.getProperty("jshmem.test.oshrun", ""), System.getProperty("jshmem.home", ""),
                System.getenv("JSHMEM_HOME"), System.getenv("PATH"));
    }

    /** The PEs' class path: jshmem.test.classpath, else the test JVM's (manifest-only jars expanded). */
    static String classPath() throws IOException {
        String explicit = System.getProperty("jshmem.test.classpath", "");
        if (!explicit.isBlank()) {
            return explicit;
        }
        Set<String> entries = new LinkedHashSet<>();
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (e.isEmpty()) {
                continue;
            }
            entries.add(e);
            Path p = Path.of(e);
            // surefire's "manifest-only jar": the real class path is in its manifest.
            if (e.endsWith(".jar") && Files.isRegularFile(p) && p.getFileName().toString().startsWith("surefire")) {
                try (JarFile jar = new JarFile(p.toFile())) {
                    Manifest m = jar.getManifest();
                    String cp = m == null ? null : m.getMainAttributes().getValue("Class-Path");
                    if (cp != null) {
                        URI base = p.toAbsolutePath().getParent().toUri();
                        for (String u : cp.trim().split("\\s+")) {
                            entries.add(Path.of(base.resolve(u)).toString());
                        }
                    }
                }
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** In the message of a PE's exception when another PE ended the job. */
    private static final String ABORTED = "the job is being aborted";

    /** A finished job: the PEs' outcome lines and their output. */
    private record Job(List<String> command, int npes, int status, String output) {
        void check() {
            Map<Integer, String> passed = new TreeMap<>();
            Map<Integer, String> skipped = new TreeMap<>();
            Map<Integer, String> failed = new TreeMap<>();
            for (String line : output.lines().toList()) {
                int at = line.indexOf(PeMain.MARKER + " ");
                if (at < 0) {
                    continue;
                }
                String[] parts = line.substring(at + PeMain.MARKER.length() + 1).split(" ", 3);
                if (parts.length < 2) {
                    continue;
                }
                int pe;
                try {
                    pe = Integer.parseInt(parts[1]);
                } catch (NumberFormatException e) {
                    continue;
                }
                String message = parts.length > 2 ? parts[2] : "";
                switch (parts[0]) {
                    case "PASSED" -> passed.put(pe, message);
                    case "SKIPPED" -> skipped.put(pe, message);
                    case "FAILED" -> failed.put(pe, message);
                    default -> { }
                }
            }
            if (!failed.isEmpty()) {
                // PEs that failed only because another PE's failure aborted the job come last.
                List<Integer> order = new ArrayList<>();
                failed.forEach((pe, msg) -> {
                    if (!msg.contains(ABORTED)) {
                        order.add(pe);
                    }
                });
                failed.keySet().stream().filter(pe -> !order.contains(pe)).forEach(order::add);
                StringBuilder b = new StringBuilder();
                for (int pe : order) {
                    b.append(b.isEmpty() ? "" : "; ").append("PE ").append(pe).append(" failed: ").append(failed.get(pe));
                }
                int first = order.get(0);
                throw new AssertionFailedError(b + "\n--- output of PE " + first + " ---\n" + outputOf(first)
                        + "--- whole job (" + npes + " PEs, oshrun exit status " + status + ") ---\n" + output);
            }
            if (status != 0) {
                throw new AssertionFailedError("the job of " + npes + " PEs failed (oshrun exit status " + status
                        + (status == 124 ? ": timed out" : status == -1 ? ": oshrun did not end" : "") + ")\n"
                        + String.join(" ", command) + "\n--- output ---\n" + output);
            }
            if (!skipped.isEmpty()) {
                Map.Entry<Integer, String> first = skipped.entrySet().iterator().next();
                throw new TestAbortedException("skipped on PE " + first.getKey() + ": " + first.getValue());
            }
            if (passed.size() != npes) {
                List<Integer> silent = new ArrayList<>();
                for (int pe = 0; pe < npes; pe++) {
                    if (!passed.containsKey(pe)) {
                        silent.add(pe);
                    }
                }
                throw new AssertionFailedError("PEs " + silent + " reported no outcome (did the method exit the JVM?)"
                        + "\n--- output ---\n" + output);
            }
        }

        /** The lines oshrun tagged "[PE k] ", without the tag. */
        String outputOf(int pe) {
            String tag = "[PE " + pe + "] ";
            StringBuilder b = new StringBuilder();
            for (String line : output.lines().toList()) {
                if (line.startsWith(tag)) {
                    b.append(line, tag.length(), line.length()).append('\n');
                }
            }
            return b.toString();
        }
    }
}
