/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import io.jshmem.spi.SubprocessSupport;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code JSHMEM_SPAWNED_BY} variable that {@code io.jshmem.spawn.Spawn} gives a child of a PE
 * in place of the PE identity it removes: who spawned the child and in which phase, so that the
 * child cannot initialize jshmem (subprocess clauses 1 and 2) and can say why. It holds no secret.
 * Format: {@code pid=<pid> job=<job> pe=<pe> phase=<before-init|initialized|finalized>}.
 *
 * @param pid   the spawning process
 * @param job   its job ("singleton" for a PE that was not started by a launcher)
 * @param pe    its PE number
 * @param phase where it was in the jshmem life cycle when it spawned the child
 */
public record SpawnMarker(long pid, String job, int pe, Phase phase) {
    public static final String VARIABLE = SubprocessSupport.MARKER_VARIABLE;

    public String encode() {
        return "pid=" + pid + " job=" + job + " pe=" + pe + " phase=" + phase.label();
    }

    /** The marker in {@code env}, if present and well formed. */
    public static Optional<SpawnMarker> read(Map<String, String> env) {
        String v = env.get(VARIABLE);
        if (v == null || v.isBlank()) {
            return Optional.empty();
        }
        Map<String, String> f = new HashMap<>();
        for (String part : v.trim().split("\\s+")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                f.put(part.substring(0, eq), part.substring(eq + 1));
            }
        }
        try {
            return Optional.of(new SpawnMarker(Long.parseLong(f.get("pid")), f.getOrDefault("job", "?"),
                    Integer.parseInt(f.get("pe")), Phase.fromLabel(f.get("phase"))));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The marker for a child this process spawns now, given this process's environment, pid and
     * phase; empty when this process is no PE (no identity and never initialized), since then the
     * clauses have nothing to protect. A marker this process inherited is passed on unchanged.
     */
    public static Optional<SpawnMarker> forChild(Map<String, String> env, long pid, Phase phase) {
        Optional<PeIdentity> id = PeIdentity.find(env, PeIdentity.Scheme.ACTIVE);
        if (id.isPresent()) {
            return Optional.of(new SpawnMarker(pid, id.get().job(), id.get().pe(), phase));
        }
        if (phase != Phase.BEFORE_INIT) {
            return Optional.of(new SpawnMarker(pid, "singleton", 0, phase));
        }
        return read(env);
    }
}
