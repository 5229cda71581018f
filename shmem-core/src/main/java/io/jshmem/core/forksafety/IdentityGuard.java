/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import io.jshmem.core.base.LaunchEnv;
import io.jshmem.core.base.ProcFs;

import io.jshmem.SubprocessRefusedException;
import io.jshmem.core.forksafety.PeIdentity.Scheme;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Subprocess clauses 1 and 2 at init: a process may not initialize a PE identity that belongs to
 * one of its ancestors, nor initialize at all if it was spawned by a PE.
 *
 * <p>How it tells, without any file: a process whose environment carries a PE identity (oshrun's
 * {@code JSHMEM_JOBID} + {@code JSHMEM_PE}; a PMIx or Slurm task's, see {@link PeIdentity.Scheme})
 * walks its ancestors through {@code /proc/<pid>/stat}
 * and reads each one's {@code /proc/<pid>/environ} (readable for processes of the same user). An
 * ancestor that carries the same identity owns the PE; this process is its subprocess. Which
 * clause applies is read from the owner's {@code /proc/<pid>/maps}: its {@link OwnerMarker} gives
 * the tick at which it initialized, compared with the start tick of the owner's child on the path
 * to this process (clause 2 if created at or after init, else clause 1); its heap segment
 * {@code jshmem-<job>-<pe>} tells whether it is still within the OpenSHMEM portion. A process
 * without identity that was started by {@code io.jshmem.spawn.Spawn} from a PE carries a
 * {@link SpawnMarker} instead, which names the phase directly.
 *
 * <p>The check runs before the bootstrap is touched, so a refused process sends nothing to the
 * job. It costs two small file reads per ancestor (a handful) plus one maps file when an ancestor
 * matches, one read for a PE whose parent is the oshrun launcher that names itself in
 * {@link LaunchEnv#LAUNCHER_PID}, and nothing at all for a process with neither identity nor marker.
 */
public final class IdentityGuard {
    public static final String CLAUSE_1 = "OpenSHMEM subprocess clause 1 (if a process forks before the library is"
            + " initialized, only one of parent and child may initialize it)";
    public static final String CLAUSE_2 = "OpenSHMEM subprocess clause 2 (a child created within the OpenSHMEM portion"
            + " of the program, or after finalize, must not call OpenSHMEM routines)";
    static final String ADVICE = "To run a program from a PE, start it with io.jshmem.spawn.Spawn (it removes the PE"
            + " identity and the bootstrap secret from the child's environment), and do not call Shmem.init in the child.";
    /** Ancestors examined at most: far more than any real process tree. */
    static final int MAX_DEPTH = 64;

    private IdentityGuard() {
    }

    /** Checks this process. */
    public static void check(Map<String, String> env) {
        check(env, ProcFs.SYSTEM, ProcFs.selfPid(), Scheme.ACTIVE);
    }

    /**
     * Checks process {@code selfPid}, whose environment is {@code env}, in the process tree {@code proc}.
     *
     * @throws SubprocessRefusedException if it may not initialize
     */
    public static void check(Map<String, String> env, ProcFs proc, long selfPid, List<Scheme> schemes) {
        Optional<PeIdentity> id = PeIdentity.find(env, schemes);
        if (id.isPresent()) {
            checkAncestors(id.get(), proc, selfPid, launcherPid(env, id.get()));
            return;
        }
        Optional<SpawnMarker> marker = SpawnMarker.read(env);
        if (marker.isPresent()) {
            throw spawned(marker.get(), proc, selfPid);
        }
    }

    /** An ancestor carrying the identity, and its child on the path to the checked process. */
    private record Match(ProcFs.Stat owner, ProcFs.Stat child) {
    }

    /** The oshrun launcher's pid when it gave one with this identity ({@link LaunchEnv#LAUNCHER_PID}), else -1. */
    private static long launcherPid(Map<String, String> env, PeIdentity id) {
        String pid = env.get(LaunchEnv.LAUNCHER_PID);
        if (id.scheme() != Scheme.JSHMEM || pid == null) {
            return -1;
        }
        try {
            return Long.parseLong(pid.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void checkAncestors(PeIdentity id, ProcFs proc, long selfPid, long launcherPid) {
        Optional<ProcFs.Stat> self = proc.stat(selfPid);
        if (self.isEmpty()) {
            return; // no /proc: nothing to judge by
        }
        if (self.get().ppid() == launcherPid) {
            // Started by the launcher that made this job's identity up: no ancestor can carry it
            // (they all started before it existed), and this process is the PE itself. A subprocess
            // of a PE has the PE as its parent and takes the walk below.
            return;
        }
        ProcFs.Stat below = self.get();
        List<Match> matches = new ArrayList<>();
        for (int depth = 0; depth < MAX_DEPTH && below.ppid() > 0; depth++) {
            Optional<ProcFs.Stat> up = proc.stat(below.ppid());
            if (up.isEmpty()) {
                break;
            }
            Optional<Map<String, String>> env = proc.environ(up.get().pid());
            if (env.isPresent() && id.carriedBy(env.get())) {
                matches.add(new Match(up.get(), below));
            }
            below = up.get();
        }
        if (matches.isEmpty()) {
            return;
        }
        Match owner = null;
        OptionalLong claim = OptionalLong.empty();
        boolean live = false;
        for (Match m : matches) { // nearest first
            List<String> paths = proc.mappedPaths(m.owner().pid()).orElse(List.of());
            OptionalLong c = OwnerMarker.claimTicks(id, paths);
            boolean segment = OwnerMarker.segmentMapped(id, paths);
            if (c.isPresent() || segment) {
                owner = m;
                claim = c;
                live = segment;
                break;
            }
        }
        if (owner == null) {
            if (!id.scheme().launcherStartsOwner()) {
                return;
            }
            owner = matches.get(matches.size() - 1); // topmost: the process the launcher started
        }
        throw refusal(id, owner, claim, live, proc, selfPid);
    }

    private static SubprocessRefusedException refusal(PeIdentity id, Match owner, OptionalLong claim, boolean live,
                                                      ProcFs proc, long selfPid) {
        long ownerPid = owner.owner().pid();
        boolean createdAfterInit = claim.isPresent() ? owner.child().startTicks() >= claim.getAsLong() : live;
        int clause = createdAfterInit ? 2 : 1;

        String ownerState = live ? "initialized it and is still running it (not finalized)"
                : claim.isPresent() ? "initialized it and has since finalized" : "has not initialized jshmem yet";
        String created = claim.isPresent() ? (createdAfterInit ? "after" : "before") + " it initialized jshmem"
                : live ? "while it holds the PE's symmetric heap" : "before it initialized jshmem";
        String lineage = owner.child().pid() == selfPid
                ? "this process is its child, created " + created
                : "this process descends from its child " + owner.child().pid() + " (" + name(proc, owner.child()) + "), created " + created;
        StringBuilder m = new StringBuilder();
        m.append("jshmem: process ").append(selfPid).append(" may not initialize ").append(id).append(": ")
                .append(clause == 1 ? CLAUSE_1 : CLAUSE_2).append(". ")
                .append(id).append(" belongs to process ").append(ownerPid).append(" (").append(name(proc, owner.owner())).append(")")
                .append(claim.isPresent() || live ? ", which " : ", the process the launcher started, which ")
                .append(ownerState).append("; ").append(lineage).append(", and inherited its environment. ");
        if (clause == 1) {
            m.append("Only one of them may initialize the library, and jshmem gives the PE to the process the launcher started. ");
        }
        m.append("Nothing was sent to the job. ").append(ADVICE);
        return new SubprocessRefusedException(clause, ownerPid, m.toString());
    }

    private static SubprocessRefusedException spawned(SpawnMarker marker, ProcFs proc, long selfPid) {
        int clause = marker.phase() == Phase.BEFORE_INIT ? 1 : 2;
        String when = switch (marker.phase()) {
            case BEFORE_INIT -> "before it initialized jshmem";
            case INITIALIZED -> "within the OpenSHMEM portion of its program";
            case FINALIZED -> "after it finalized jshmem";
        };
        String owner = proc.cmdline(marker.pid()).map(c -> abbreviate(c)).orElse("no longer running");
        StringBuilder m = new StringBuilder();
        m.append("jshmem: process ").append(selfPid).append(" may not initialize jshmem: ")
                .append(clause == 1 ? CLAUSE_1 : CLAUSE_2).append(". It was spawned by PE ").append(marker.pe())
                .append(" of job ").append(marker.job()).append(" (process ").append(marker.pid()).append(", ").append(owner)
                .append(") ").append(when).append(" (").append(SpawnMarker.VARIABLE).append("=").append(marker.encode()).append("). ");
        if (clause == 1) {
            m.append("Only one of them may initialize the library, and that is the PE. ");
        }
        m.append("Nothing was sent to any job. A program that needs jshmem must be started by oshrun as a job of its own;"
                + " to let a spawned program start an independent jshmem job, spawn it with Spawn.markChild(false).");
        return new SubprocessRefusedException(clause, marker.pid(), m.toString());
    }

    private static String name(ProcFs proc, ProcFs.Stat st) {
        return proc.cmdline(st.pid()).map(IdentityGuard::abbreviate).orElse(st.comm());
    }

    static String abbreviate(String commandLine) {
        return commandLine.length() <= 160 ? commandLine : commandLine.substring(0, 157) + "...";
    }
}
