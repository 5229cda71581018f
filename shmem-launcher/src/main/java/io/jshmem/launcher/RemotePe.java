/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A PE on another host, as oshrun's {@link Job} sees it: a {@link Process} whose exit is the PE's,
 * reported by its host's start script ({@link RemoteCommand#hostScript}) through the launch agent
 * that it shares with the host's other PEs. Its standard input is the agent's, the host's lifeline:
 * closing it ends every PE of the host. Its output arrives demultiplexed by {@link HostOutput}, so
 * its own streams are empty.
 *
 * <p>If the agent ends without having reported the PE's exit (the connection to the host was lost,
 * the script failed before starting it), the PE's status is the agent's, as it was when each PE had
 * its own agent, or 1 if that is 0 (oshrun saw no PE exit, so it cannot say the PE ended well).
 */
final class RemotePe extends Process {
    private final Process agent;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private volatile boolean reported;

    /**
     * @param agentOutput completes when the agent's standard output, which carries the exit reports,
     *                    has been read to its end: only then is a missing report missing
     */
    RemotePe(Process agent, CompletableFuture<Void> agentOutput) {
        this.agent = agent;
        agentOutput.thenCompose(x -> agent.onExit())
                .thenRun(() -> exit.complete(agent.exitValue() == 0 ? 1 : agent.exitValue()));
    }

    /** The agent's own exit status (it has exited). */
    int agentExitValue() {
        return agent.exitValue();
    }

    /** The host script said the PE ended with {@code status}. */
    void exited(int status) {
        reported = true;
        exit.complete(status);
    }

    /** Whether the host script reported the PE's exit (else its status is the agent's). */
    boolean reported() {
        return reported;
    }

    @Override
    public OutputStream getOutputStream() {
        return agent.getOutputStream();
    }

    @Override
    public InputStream getInputStream() {
        return InputStream.nullInputStream();
    }

    @Override
    public InputStream getErrorStream() {
        return InputStream.nullInputStream();
    }

    @Override
    public int waitFor() throws InterruptedException {
        try {
            return exit.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e); // never completed exceptionally
        }
    }

    @Override
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        try {
            exit.get(timeout, unit);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public int exitValue() {
        if (!exit.isDone()) {
            throw new IllegalThreadStateException("the remote PE has not exited");
        }
        return exit.join();
    }

    @Override
    public boolean isAlive() {
        return !exit.isDone();
    }

    @Override
    public CompletableFuture<Process> onExit() {
        return exit.thenApply(status -> this);
    }

    /** Ends the agent, and so (through the lifeline) every PE of the host. */
    @Override
    public void destroy() {
        agent.destroy();
    }

    @Override
    public Process destroyForcibly() {
        agent.destroyForcibly();
        return this;
    }

    /** The agent's pid (the PE's own is known to the bootstrap server). */
    @Override
    public long pid() {
        return agent.pid();
    }

    /** The agent's handle: what runs on this machine for the PE. */
    @Override
    public ProcessHandle toHandle() {
        return agent.toHandle();
    }
}
