/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.core.base.Setting;
import io.jshmem.launcher.LaunchOptions.Action;
import io.jshmem.launcher.LaunchOptions.UsageException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchOptionsTest {
    private static final Map<String, String> ENV = Map.of("HOME", "/home/pe", "PATH", "/bin");

    private static LaunchOptions parse(String... args) throws UsageException {
        return LaunchOptions.parse(List.of(args), ENV);
    }

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> parse(args)).getMessage();
    }

    @Test
    void parsesEveryOptionAndLeavesTheRestToTheProgram() throws UsageException {
        LaunchOptions o = parse("-np", "4", "-cp", "a:b", "--tag-output", "-x", "FOO=bar=baz", "-x", "HOME",
                "--timeout", "30", "--jvm-opt", "-Xmx1g", "--jvm-opt=-ea", "app.Main", "x", "-np", "7", "--help");
        assertEquals(Action.RUN, o.action());
        assertEquals(4, o.npes());
        assertEquals("a:b", o.classpath());
        assertTrue(o.tagOutput());
        assertEquals(Map.of("FOO", "bar=baz", "HOME", "/home/pe"), o.exportedEnv());
        assertEquals(30, o.timeoutSeconds());
        assertEquals(List.of("-Xmx1g", "-ea"), o.jvmOptions());
        assertEquals("app.Main", o.mainClass());
        assertNull(o.jar());
        assertEquals(List.of("x", "-np", "7", "--help"), o.programArgs());
    }

    /** Past 64 hosts or 4096 PEs oshrun's own launcher refuses and names srun and mpirun; --allow-large-job overrides. */
    @Test
    void refusesJobsPastItsScaleLimitsPointingToTheResourceManager() throws UsageException {
        StringBuilder hosts = new StringBuilder();
        for (int h = 0; h < LaunchOptions.MAX_OWN_LAUNCHER_HOSTS + 1; h++) {
            hosts.append(h == 0 ? "" : ",").append("node").append(h).append(":2");
        }
        String tooManyHosts = error("--host", hosts.toString(), "Main");
        assertTrue(tooManyHosts.startsWith("65 hosts is more than the 64"), tooManyHosts);
        assertTrue(tooManyHosts.contains("srun --mpi=pmix -n 130") && tooManyHosts.contains("mpirun -n 130")
                && tooManyHosts.contains("--allow-large-job"), tooManyHosts);
        assertEquals(130, parse("--allow-large-job", "--host", hosts.toString(), "Main").npes());
        // The hosts that get PEs count, not the list's length.
        assertEquals(64, parse("--host", hosts.toString(), "-np", "64", "--map-by", "node", "Main").npes());
        assertEquals(128, parse("--host", hosts.toString(), "-np", "128", "Main").npes());

        String tooManyPes = error("-np", "4097", "--oversubscribe", "Main");
        assertTrue(tooManyPes.startsWith("4097 PEs is more than the 4096"), tooManyPes);
        assertEquals(4097, parse("-np", "4097", "--oversubscribe", "--allow-large-job", "Main").npes());
        assertEquals(4096, parse("-np", "4096", "--oversubscribe", "Main").npes());
    }

    @Test
    void defaultsAreMinimal() throws UsageException {
        LaunchOptions o = parse("-n", "2", "Main");
        assertEquals(2, o.npes());
        assertNull(o.classpath());
        assertFalse(o.tagOutput());
        assertEquals(Map.of(), o.exportedEnv());
        assertEquals(0, o.timeoutSeconds());
        assertEquals(List.of(), o.jvmOptions());
        assertEquals(List.of(), o.programArgs());
    }

    /** Repeated diagnostics are aggregated unless --no-aggregate or --tag-output asks for every PE's lines. */
    @Test
    void aggregationIsTheDefaultWithoutTagOutput() throws UsageException {
        assertTrue(parse("-np", "2", "Main").output().aggregate());
        assertFalse(parse("-np", "2", "--no-aggregate", "Main").output().aggregate());
        assertFalse(parse("-np", "2", "--tag-output", "Main").output().aggregate());
        assertTrue(LaunchOptions.help().contains("--no-aggregate"));
    }

    /** mpirun's habits: --map-by, -N, --report-bindings, --output-filename, --timestamp-output, -q. */
    @Test
    void mpirunOptions() throws UsageException {
        LaunchOptions d = parse("-np", "2", "Main");
        assertEquals(LaunchOptions.Mapping.DEFAULT, d.mapping());
        assertEquals(LaunchOptions.Output.DEFAULT, d.output());
        LaunchOptions o = parse("-np", "2", "--map-by", "socket", "--report-bindings", "--timestamp-output", "-q",
                "--output-filename", "out", "Main");
        assertEquals(new LaunchOptions.Mapping("socket", 0, true), o.mapping());
        assertEquals(new LaunchOptions.Output(false, true, java.nio.file.Path.of("out").toAbsolutePath().toString(), true),
                o.output(), "per-PE files and timestamps: nothing aggregated");
        assertEquals("node", parse("-np", "2", "--map-by=NODE", "Main").mapping().mapBy());
        assertTrue(parse("-np", "2", "--quiet", "Main").output().quiet());
        assertFalse(parse("-np", "2", "--timestamp-output", "Main").output().aggregate());
        // -N: PEs per node; on this machine alone it is -np, with hosts every host gets N slots.
        assertEquals(3, parse("-N", "3", "Main").npes());
        assertEquals(2, parse("-N", "3", "-np", "2", "Main").npes());
        assertEquals(4, parse("-N", "2", "--host", "a:5,b", "Main").npes());
        assertEquals(List.of(new HostList.Host("a", 2), new HostList.Host("b", 2)), parse("-N", "2", "-H", "a:5,b", "Main").hosts());
        assertEquals(5, parse("-N", "2", "-np", "5", "--oversubscribe", "Main").npes());
        assertEquals("--map-by fill: use core, socket or node", error("-np", "2", "--map-by", "fill", "Main"));
        assertTrue(error("-N", "2", "-np", "3", "Main").startsWith("-np 3 is more than -N 2 PEs on the one node"));
        assertTrue(error("-N", "2", "--host", "a,b", "-np", "5", "Main").contains("more than the 4 slots"));
        assertTrue(error("-N", "0", "Main").contains("positive"));
        String help = LaunchOptions.help();
        for (String option : List.of("--map-by core|socket|node", "--report-bindings", "-N N", "--output-filename DIR",
                "--timestamp-output", "-q, --quiet", "-H, --host", "--oversubscribe")) {
            assertTrue(help.contains(option), option + " is not in --help");
        }
    }

    @Test
    void acceptsAliasesAndInlineValues() throws UsageException {
        assertEquals(3, parse("-np", "2", "--np=3", "Main").npes());
        assertEquals("x.jar", parse("-np", "1", "--classpath=x.jar", "Main").classpath());
        assertEquals("y", parse("-np", "1", "-classpath", "y", "Main").classpath());
        assertEquals(5, parse("-np", "1", "--timeout=5", "Main").timeoutSeconds());
        assertEquals(30, parse("-np", "1", "Main").heartbeatTimeoutSeconds());
        assertEquals(7, parse("-np", "1", "--heartbeat-timeout=7", "Main").heartbeatTimeoutSeconds());
        assertTrue(error("-np", "1", "--heartbeat-timeout", "2", "Main").contains("at least 3 seconds"));
    }

    @Test
    void jarEndsTheOptions() throws UsageException {
        LaunchOptions o = parse("-np", "2", "-jar", "app.jar", "-cp", "z");
        assertEquals("app.jar", o.jar());
        assertNull(o.mainClass());
        assertEquals(List.of("-cp", "z"), o.programArgs());
    }

    @Test
    void moduleEndsTheOptions() throws UsageException {
        LaunchOptions o = parse("-np", "2", "-p", "mods", "--module=app/app.Main", "-np", "9");
        assertEquals("mods", o.modulePath());
        assertEquals("app/app.Main", o.module());
        assertNull(o.mainClass());
        assertEquals(List.of("-np", "9"), o.programArgs());
        assertEquals("app", parse("-np", "1", "-m", "app").module());
        assertNull(parse("-np", "1", "-m", "app").modulePath());
        assertEquals("--module-path is for a modular program: give its module with -m module[/class]",
                error("-np", "2", "--module-path", "mods", "app.Main"));
        assertEquals("-m needs a module, as module[/class]", error("-np", "2", "-m"));
    }

    @Test
    void doubleDashIntroducesTheMainClass() throws UsageException {
        LaunchOptions o = parse("-np", "1", "--", "Main", "-x");
        assertEquals("Main", o.mainClass());
        assertEquals(List.of("-x"), o.programArgs());
    }

    /** --help lists the settings from the table: each one a user sets, and no name the table lacks. */
    @Test
    void helpListsTheSettingsTable() {
        String help = LaunchOptions.help();
        for (Setting s : Setting.values()) {
            if (!s.fromProperty() && s.category() != Setting.Category.JOB && s != Setting.JSHMEM_SPAWNED_BY) {
                assertTrue(help.contains("\n  " + s.key() + " ") || help.contains("\n  " + s.key() + "\n"), s.key() + " is not in --help");
            }
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\bJ?SHMEM_[A-Z0-9_]*[A-Z0-9]\\b").matcher(help);
        while (m.find()) {
            assertTrue(Setting.byKey(m.group()) != null, m.group() + " in --help is not in the settings table");
        }
    }

    @Test
    void forwardingAnUnsetVariableExportsNothing() throws UsageException {
        assertEquals(Map.of(), parse("-np", "1", "-x", "NOT_SET_ANYWHERE", "Main").exportedEnv());
    }

    @Test
    void helpAndVersionNeedNothingElse() throws UsageException {
        assertEquals(Action.HELP, parse("--help").action());
        assertEquals(Action.HELP, parse("-np", "2", "-h").action());
        assertEquals(Action.VERSION, parse("-V").action());
        assertEquals(Action.VERSION, parse("--version").action());
        assertTrue(LaunchOptions.help().contains("JSHMEM_JAVA_OPTS"));
        assertTrue(LaunchOptions.help().contains("SHMEM_SYMMETRIC_SIZE"));
        assertTrue(LaunchOptions.version().matches("oshrun \\(jshmem [0-9][0-9A-Za-z.+-]*\\), OpenSHMEM 1\\.6"), LaunchOptions.version());
    }

    /** --report (shmem-report when the job ends) is an oshrun option, only with --jfr; after the program it is the program's. */
    @Test
    void reportNeedsJfr() throws UsageException {
        assertTrue(parse("-np", "2", "--jfr", "--report", "Main").report());
        assertFalse(parse("-np", "2", "--jfr", "Main").report());
        assertFalse(parse("-np", "2", "Main", "--report").report());
        assertEquals(List.of("--report"), parse("-np", "2", "Main", "--report").programArgs());
        assertEquals("--report reports the job's flight recordings: use it with --jfr", error("-np", "2", "--report", "Main"));
    }

    @Test
    void rejectsBadCommandLines() {
        assertTrue(error("Main").contains("missing -np"));
        assertTrue(error().contains("missing -np"));
        assertTrue(error("-np", "0", "Main").contains("-np needs a positive integer, got \"0\""));
        assertTrue(error("-np", "four", "Main").contains("got \"four\""));
        assertTrue(error("-np", "-2", "Main").contains("got \"-2\""));
        assertTrue(error("-np").contains("-np needs a number of PEs"));
        assertTrue(error("-np", "2").contains("missing the program"));
        assertTrue(error("-np", "2", "--frobnicate", "Main").contains("unknown option --frobnicate"));
        assertTrue(error("-np", "2", "-x", "1BAD=v", "Main").contains("-x needs VAR or VAR=VALUE"));
        assertTrue(error("-np", "2", "-x", "=v", "Main").contains("-x needs VAR or VAR=VALUE"));
        assertTrue(error("-np", "2", "-x", "JSHMEM_PE=3", "Main").contains("JSHMEM_PE is set by oshrun"));
        assertTrue(error("-np", "2", "--timeout", "0", "Main").contains("--timeout needs a positive integer"));
        assertTrue(error("-np", "2", "-jar").contains("-jar needs a jar file"));
        assertTrue(error("-np", "2", "--").contains("-- needs the main class"));
    }

    @Test
    void hostOptionsAndTheirDefaults() throws UsageException {
        LaunchOptions plain = parse("-np", "2", "Main");
        assertFalse(plain.multiHost());
        assertEquals(List.of("ssh"), plain.launchAgent());
        assertNull(plain.bootstrapAddress());
        assertEquals(60, plain.launchTimeoutSeconds());

        LaunchOptions o = parse("--host", "c1:2,c2:2", "--launch-agent", " docker  exec -i ", "--bootstrap-address",
                "172.18.0.1", "--launch-timeout=5", "--oversubscribe", "-np", "5", "Main");
        assertTrue(o.multiHost());
        assertEquals(List.of(new HostList.Host("c1", 2), new HostList.Host("c2", 2)), o.hosts());
        assertEquals(List.of("docker", "exec", "-i"), o.launchAgent());
        assertEquals("172.18.0.1", o.bootstrapAddress());
        assertEquals(5, o.launchTimeoutSeconds());
        assertTrue(o.oversubscribe());
        assertEquals(5, o.npes());
    }

    @Test
    void withHostsNpDefaultsToTheSlots() throws UsageException {
        assertEquals(5, parse("--host", "a:2,b:3", "Main").npes());
        assertEquals(3, parse("-H", "a:2,b:3", "-np", "3", "Main").npes());
    }

    @Test
    void bootstrapAddressForms() throws UsageException {
        assertEquals(new LaunchOptions.BootstrapAddress("10.1.2.3", 0), LaunchOptions.BootstrapAddress.parse("10.1.2.3"));
        assertEquals(new LaunchOptions.BootstrapAddress("10.1.2.3", 7000),
                LaunchOptions.BootstrapAddress.parse("10.1.2.3:7000"));
        assertEquals(new LaunchOptions.BootstrapAddress("fe80::1", 0), LaunchOptions.BootstrapAddress.parse("fe80::1"));
        assertEquals(new LaunchOptions.BootstrapAddress("fe80::1", 9), LaunchOptions.BootstrapAddress.parse("[fe80::1]:9"));
        assertEquals(new LaunchOptions.BootstrapAddress("head-node", 0), LaunchOptions.BootstrapAddress.parse("head-node"));
        assertEquals("0.0.0.0:7000", parse("--bootstrap-address", "0.0.0.0:7000", "-np", "1", "Main").bootstrapAddress());
    }

    @Test
    void rejectsBadHostOptions() {
        assertTrue(error("--host", "a:1,b:1", "-np", "3", "Main").contains("-np 3 is more than the 2 slots"));
        assertTrue(error("--host", "a", "--hostfile", "f", "Main").contains("either --host or --hostfile"));
        assertTrue(error("--host", "a", "--host", "b", "Main").contains("--host given twice"));
        assertTrue(error("--launch-agent", " ", "-np", "1", "Main").contains("--launch-agent needs a command"));
        assertTrue(error("--bootstrap-address", "a b", "-np", "1", "Main").contains("--bootstrap-address needs"));
        assertTrue(error("--bootstrap-address", "h:99999", "-np", "1", "Main").contains("out of range"));
        assertTrue(error("--bootstrap-address", "a:", "-np", "1", "Main").contains("--bootstrap-address needs"));
        assertTrue(error("--bootstrap-address", ":7", "-np", "1", "Main").contains("--bootstrap-address needs"));
        assertTrue(error("--launch-timeout", "0", "-np", "1", "Main").contains("positive integer"));
        assertTrue(error("--hostfile", "/no/such/hostfile", "Main").contains("cannot read host file"));
        assertTrue(LaunchOptions.help().contains("--launch-agent"));
    }
}
