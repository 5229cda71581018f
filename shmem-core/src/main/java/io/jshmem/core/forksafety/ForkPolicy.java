/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import io.jshmem.ForkSafetyReport;
import io.jshmem.SubprocessRefusedException;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.LaunchEnv;
import io.jshmem.core.base.Setting;
import io.jshmem.core.base.Settings;
import io.jshmem.core.base.Log;
import io.jshmem.core.base.ProcFs;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Subprocess clause 3 at init ("implementations may not support fork; applications should use
 * posix_spawn"): what init does when the JVM's {@code jdk.lang.Process.launchMechanism} is
 * {@code FORK} or {@code VFORK} (so that every {@link ProcessBuilder} forks this process) while
 * the fork-safety report says fork is not safe. Set by {@code JSHMEM_FORK_POLICY}:
 * <ul>
 * <li>{@code warn} (the default): print one warning to stderr, naming the reasons, and go on;
 * <li>{@code refuse}: init throws a {@link SubprocessRefusedException} (clause 3) before touching the job;
 * <li>{@code allow}: say nothing.
 * </ul>
 * With the default POSIX_SPAWN mechanism, or when fork is safe, nothing happens (and the report
 * is not even computed: the check costs one property read).
 */
public enum ForkPolicy {
    WARN, REFUSE, ALLOW;

    public static final String VARIABLE = "JSHMEM_FORK_POLICY";
    public static final String CLAUSE_3 = "OpenSHMEM subprocess clause 3 (implementations may not support fork;"
            + " create subprocesses with posix_spawn)";

    private static volatile boolean warned;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The policy a value of {@value #VARIABLE} names (null or blank: warn). */
    public static ForkPolicy parse(String value) {
        return Config.choice(Settings.of(value == null ? Map.of() : Map.of(VARIABLE, value)), Setting.JSHMEM_FORK_POLICY,
                ForkPolicy.class);
    }

    /** The check at init, for this process. */
    public static void checkAtInit(Map<String, String> env) {
        ForkPolicy policy = parse(env.get(VARIABLE)); // an invalid value is an error whatever the mechanism
        String mech = ForkSafety.launchMechanism();
        if (policy == ALLOW || !ForkSafety.forks(mech)) {
            return; // the usual case: one property read, nothing else loaded
        }
        check(env, mech, () -> ForkSafety.evaluate(ForkSafety.probe(ForkSafety.Sources.system(), env,
                ForkSafety.forecast(env), false)), Log.FORK_SAFETY::warning);
    }

    /**
     * The check with its inputs given.
     *
     * @param warn     where the warning goes (the io.jshmem.forksafety logger at init)
     * @return whether a warning was given
     * @throws SubprocessRefusedException under {@code refuse}
     */
    public static boolean check(Map<String, String> env, String mechanism, Supplier<ForkSafetyReport> report, Consumer<String> warn) {
        ForkPolicy policy = parse(env.get(VARIABLE));
        if (policy == ALLOW || !ForkSafety.forks(mechanism)) {
            return false;
        }
        ForkSafetyReport r = report.get();
        if (r.safe()) {
            return false;
        }
        String who = env.containsKey(LaunchEnv.PE) ? "PE " + env.get(LaunchEnv.PE) : "process " + ProcFs.selfPid();
        String what = ForkSafety.LAUNCH_MECHANISM_PROPERTY + "=" + mechanism + " makes every ProcessBuilder fork this JVM,"
                + " and fork is not safe here: " + String.join("; ", r.reasons()) + ". " + CLAUSE_3
                + ": remove the property (the default, POSIX_SPAWN, does not fork) or start subprocesses with io.jshmem.spawn.Spawn,"
                + " which uses posix_spawn whatever the launch mechanism.";
        if (policy == REFUSE) {
            throw new SubprocessRefusedException(3, -1, "jshmem: " + who + ": refusing to initialize (" + VARIABLE + "=refuse): " + what);
        }
        if (!warned) {
            warned = true;
            warn.accept("jshmem: " + who + ": warning: " + what + " (" + VARIABLE + "=refuse makes this an error, =allow silences it)");
        }
        return true;
    }

    /** For tests: lets the next warning print again. */
    static void resetWarning() {
        warned = false;
    }
}
