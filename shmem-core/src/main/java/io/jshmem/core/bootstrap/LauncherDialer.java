/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import static io.jshmem.core.bootstrap.BootstrapProtocol.keepAlive;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;

/**
 * Connecting a PE to the launcher's bootstrap server, with retries and backoff (the connection's
 * session, HELLO and reader, is {@link TcpBootstrap}'s). The messages say why the launcher could not
 * be reached: refused, unreachable, or busy.
 */
final class LauncherDialer {
    /**
     * How long to keep retrying a refused or unreachable launcher: its server is up before PEs
     * start, so nothing listening there means it has ended or the address is wrong.
     */
    private static final long CONNECT_RETRY_MILLIS = 5_000;
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;
    /** First and longest pause between connection attempts. */
    private static final long FIRST_BACKOFF_MILLIS = 20;
    private static final long MAX_BACKOFF_MILLIS = 1_000;

    /** The launcher answered this PE's HELLO with a refusal: final, never retried. */
    static final class Refused extends IllegalStateException {
        Refused(String message) {
            super(message);
        }
    }

    /** Why a connection attempt failed, for the retry rule and the final message. */
    private enum Failure { REFUSED, UNREACHABLE, NO_ANSWER, DROPPED }

    /** Opens the session on a connected socket: HELLO and its reply, then the reader. */
    interface Session {
        TcpBootstrap open(Socket socket) throws IOException;
    }

    private LauncherDialer() {
    }

    /**
     * Connects with retries and backoff: a launcher that is busy (its port flooded: connections time
     * out, or are dropped before the reply) is retried until {@code busyRetryMillis}; one that
     * refuses or cannot be reached, for {@link #CONNECT_RETRY_MILLIS}. A session that fails with an
     * {@link IOException} is a busy launcher too; one that fails otherwise (a {@link Refused}) is final.
     */
    static TcpBootstrap dial(InetSocketAddress server, long busyRetryMillis, Session session) {
        long start = System.nanoTime();
        long backoff = FIRST_BACKOFF_MILLIS;
        int attempts = 0;
        int[] counts = new int[Failure.values().length];
        while (true) {
            attempts++;
            Failure failure = null;
            IOException error = null;
            Socket socket = new Socket(Proxy.NO_PROXY); // a direct connection: no proxy selector to set up
            try {
                socket.setTcpNoDelay(true);
                keepAlive(socket);
                socket.connect(server, CONNECT_TIMEOUT_MILLIS);
            } catch (UnknownHostException e) {
                closeQuietly(socket);
                throw new IllegalStateException("cannot reach the jshmem launcher at " + hostPort(server)
                        + ": unknown host (see oshrun --bootstrap-address)", e);
            } catch (IOException e) {
                closeQuietly(socket);
                error = e;
                failure = e instanceof SocketTimeoutException ? Failure.NO_ANSWER
                        : e instanceof ConnectException && String.valueOf(e.getMessage()).contains("refused") ? Failure.REFUSED
                        : e instanceof NoRouteToHostException || e instanceof SocketException ? Failure.UNREACHABLE
                        : Failure.NO_ANSWER;
                socket = null;
            }
            if (socket != null) {
                try {
                    return session.open(socket);
                } catch (IOException e) {
                    // Accepted (by the kernel, at least) but dropped or not answered: a busy launcher.
                    closeQuietly(socket);
                    error = e;
                    failure = Failure.DROPPED;
                } catch (RuntimeException e) {
                    closeQuietly(socket);
                    throw e;
                }
            }
            counts[failure.ordinal()]++;
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            boolean busy = failure == Failure.NO_ANSWER || failure == Failure.DROPPED;
            if (elapsed >= (busy ? busyRetryMillis : CONNECT_RETRY_MILLIS)) {
                throw unreachable(server, failure, error, attempts, counts, elapsed);
            }
            sleepQuietly(backoff + java.util.concurrent.ThreadLocalRandom.current().nextLong(backoff / 2 + 1));
            backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
        }
    }

    private static IllegalStateException unreachable(InetSocketAddress server, Failure last, IOException error,
                                                     int attempts, int[] counts, long elapsed) {
        String where = "the jshmem launcher at " + hostPort(server);
        String tried = " (" + attempts + " attempt" + (attempts == 1 ? "" : "s") + " in " + elapsed / 1000.0 + " s; last: "
                + error + ")";
        String message = switch (last) {
            case REFUSED -> "cannot reach " + where + ": connection refused, nothing listens there" + tried
                    + ": has oshrun ended, or can this host not reach that address (see oshrun --bootstrap-address)?";
            case UNREACHABLE -> "cannot reach " + where + ": host or network unreachable" + tried
                    + ": can this host reach that address (see oshrun --bootstrap-address)?";
            case NO_ANSWER, DROPPED -> "cannot reach " + where + ": the launcher is busy: "
                    + (counts[Failure.DROPPED.ordinal()] > 0
                            ? counts[Failure.DROPPED.ordinal()] + " connections were accepted but dropped before its"
                                    + " reply, " + counts[Failure.NO_ANSWER.ordinal()] + " were not answered"
                            : "no connection was answered (a firewall dropping packets would look the same)")
                    + tried + "; is something flooding its port? oshrun reports the connections it drops"
                    + " (retried for --launch-timeout)";
        };
        return new IllegalStateException(message, error);
    }
    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to release
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while connecting to the jshmem launcher", e);
        }
    }

    static String hostPort(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }
}
