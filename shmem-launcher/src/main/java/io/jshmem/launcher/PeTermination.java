/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;

/** Ending a job's PEs and whatever they started, so that no process outlives the job. */
final class PeTermination {
    /** Between SIGTERM and SIGKILL: a PE's JVM runs its shutdown hooks in well under this. */
    private static final long GRACE_MILLIS = 2_000;
    /**
     * How long closing a remote PE's lifeline may take to end it: a round trip through its agent (the
     * remote script allows {@link RemoteCommand#REMOTE_KILL_GRACE_SECONDS} before SIGKILL).
     */
    private static final long REMOTE_GRACE_MILLIS = 2_000 + RemoteCommand.REMOTE_KILL_GRACE_SECONDS * 1_000L;

    private PeTermination() {
    }

    /**
     * SIGTERM to the local PEs and their descendants, SIGKILL to those still alive after the grace;
     * remote PEs are ended by closing their agent's standard input (their lifeline), agents that do
     * not exit in time killed here with their children. {@code stopUnstartedAgents} kills the agents
     * whose start script has not run (see {@link PeStarter#stopUnstartedAgents}).
     */
    static void endAll(AtomicReferenceArray<Process> pes, boolean[] remote, Runnable stopUnstartedAgents) {
        // Remote PEs: closing the agent's standard input makes the start script there end the PE
        // (SIGTERM, SIGKILL after a grace), after which the agent exits with the PE's status.
        Set<ProcessHandle> agents = new LinkedHashSet<>();
        Set<ProcessHandle> victims = new LinkedHashSet<>();
        for (int pe = 0; pe < pes.length(); pe++) {
            Process process = pes.get(pe);
            if (process != null && remote[pe]) {
                agents.add(process.toHandle());
                closeQuietly(process.getOutputStream());
            } else if (process != null) {
                victims.add(process.toHandle());
            }
        }
        stopUnstartedAgents.run();
        // Also whatever the PEs started: once a PE is dead its children are no longer ours to find,
        // so when every PE has exited (a job's normal end) there is nothing to look for, and the
        // scan of /proc that finds descendants (milliseconds, before oshrun can exit) is skipped.
        // The agents' own children (an ssh ProxyCommand, say) go with their agent.
        victims.removeIf(h -> !h.isAlive());
        if (!victims.isEmpty() || !agents.isEmpty()) {
            Set<ProcessHandle> agentChildren = new LinkedHashSet<>();
            agents.forEach(a -> a.descendants().forEach(agentChildren::add));
            ProcessHandle.current().descendants()
                    .filter(h -> !agents.contains(h) && !agentChildren.contains(h))
                    .forEach(victims::add);
        }
        victims.removeIf(h -> !h.isAlive());
        agents.removeIf(h -> !h.isAlive());
        if (victims.isEmpty() && agents.isEmpty()) {
            return;
        }
        victims.forEach(ProcessHandle::destroy);
        CompletableFuture<Boolean> agentsGone = CompletableFuture.supplyAsync(
                () -> awaitExit(agents, REMOTE_GRACE_MILLIS), Thread::startVirtualThread);
        if (!awaitExit(victims, GRACE_MILLIS)) {
            victims.forEach(ProcessHandle::destroyForcibly);
            awaitExit(victims, GRACE_MILLIS);
        }
        if (!agentsGone.join()) {
            // The remote side did not answer (host gone?): at least no local agent outlives the job.
            Set<ProcessHandle> stuck = new LinkedHashSet<>();
            agents.stream().filter(ProcessHandle::isAlive).forEach(a -> {
                stuck.add(a);
                a.descendants().forEach(stuck::add);
            });
            stuck.forEach(ProcessHandle::destroyForcibly);
            awaitExit(stuck, GRACE_MILLIS);
        }
    }

    private static void closeQuietly(OutputStream stream) {
        try {
            stream.close();
        } catch (IOException e) {
            // the agent is gone already
        }
    }

    private static boolean awaitExit(Set<ProcessHandle> processes, long millis) {
        CompletableFuture<?>[] exits = processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(exits).get(millis, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
