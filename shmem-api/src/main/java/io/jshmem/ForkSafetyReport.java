/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether {@code fork()} is safe in this process, and why: the answer to "can this process fork
 * (through native code, or through the JVM with {@code -Djdk.lang.Process.launchMechanism=FORK})
 * without corrupting jshmem's communication?". Returned by {@link Shmem#forkSafety()} (usable
 * before init) and {@link Shmem#forkSafetyReport()} (for the transport in use).
 *
 * <p>The danger is memory registered (pinned) with an RDMA network adapter: after {@code fork()}
 * such pages are copy-on-write, and if the parent writes one first it gets a new page while the
 * adapter keeps reading and writing the old one, which only the child sees. Each {@link Finding}
 * is one input examined: the transport in use, RDMA devices, the kernel (copy-on-fork for pinned
 * pages since Linux 5.13), libibverbs' fork state ({@code ibv_is_fork_initialized()}),
 * {@code RDMAV_FORK_SAFE} / {@code IBV_FORK_SAFE}, {@code UCX_IB_FORK_INIT}, the JVM's process
 * launch mechanism. A finding whose effect is {@link Effect#SAFE} rules the danger out by itself
 * (for instance: no RDMA device, so nothing can be registered); the report is safe when at least one
 * finding is {@code SAFE}, and otherwise lists the {@link Effect#RISK} findings as its reasons.
 *
 * <p>Whatever the answer, subprocesses created with posix_spawn (the JVM's default process
 * launch mechanism, and what {@code io.jshmem.spawn.Spawn} always uses) copy no memory and are
 * always safe.
 *
 * @param safe            whether fork cannot corrupt this process's communication
 * @param summary         one line: the verdict and its main reason
 * @param launchMechanism how the JVM creates processes for {@link ProcessBuilder}:
 *                        {@code POSIX_SPAWN} (the default), {@code FORK} or {@code VFORK}
 * @param findings        every input examined, in a fixed order
 */
public record ForkSafetyReport(boolean safe, String summary, String launchMechanism, List<Finding> findings) {

    /** What a finding means for fork safety. */
    public enum Effect {
        /** Rules the danger out by itself (e.g. no RDMA device, or the kernel copies pinned pages at fork). */
        SAFE,
        /** Part of the danger, unless another finding rules it out (e.g. an RDMA device is present). */
        RISK,
        /** Informational: no bearing on the verdict. */
        NEUTRAL
    }

    /**
     * One input examined.
     *
     * @param name        stable name, e.g. {@code "kernel"}, {@code "rdma devices"}, {@code "libibverbs"}
     * @param value       what was found, e.g. {@code "6.18.4"} or {@code "none"}
     * @param effect      its bearing on the verdict
     * @param explanation why, in one sentence
     */
    public record Finding(String name, String value, Effect effect, String explanation) {
        /** Checks that no component is null. */
        public Finding {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(effect, "effect");
            Objects.requireNonNull(explanation, "explanation");
        }
    }

    /** Checks that no component is null; copies {@code findings}. */
    public ForkSafetyReport {
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(launchMechanism, "launchMechanism");
        findings = List.copyOf(findings);
    }

    /** {@return the findings behind the verdict, as "name: explanation": the SAFE ones when safe, else the RISK ones} */
    public List<String> reasons() {
        Effect deciding = safe ? Effect.SAFE : Effect.RISK;
        List<String> reasons = new ArrayList<>();
        for (Finding f : findings) {
            if (f.effect() == deciding) {
                reasons.add(f.name() + ": " + f.explanation());
            }
        }
        return reasons;
    }

    /**
     * The finding named {@code name}, if examined.
     *
     * @param name a finding's {@link Finding#name() name}
     * @return the finding, or empty if none has that name
     */
    public Optional<Finding> finding(String name) {
        return findings.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    /** {@return whether the JVM's {@link ProcessBuilder} forks this process ({@code FORK} or {@code VFORK}) instead of using posix_spawn} */
    public boolean launchMechanismForks() {
        String m = launchMechanism.toUpperCase(Locale.ROOT);
        return m.equals("FORK") || m.equals("VFORK");
    }

    /** {@return the report as indented lines, as {@code bin/shmem-info} and {@code SHMEM_INFO} print it} */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add("fork safety: " + summary);
        for (Finding f : findings) {
            lines.add(String.format(Locale.ROOT, "  %-20s %s [%s] %s", f.name() + ":", f.value(),
                    f.effect().name().toLowerCase(Locale.ROOT), f.explanation()));
        }
        return lines;
    }

    /**
     * A report that answers nothing: for a runtime that cannot tell (counted as not safe).
     *
     * @param why why nothing can be told, in one sentence
     * @return a report that is not safe, with {@code why} as its only finding
     */
    public static ForkSafetyReport unknown(String why) {
        return new ForkSafetyReport(false, "unknown: " + why, "unknown",
                List.of(new Finding("runtime", "unknown", Effect.RISK, why)));
    }
}
