/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.ProtocolException;
import java.net.Socket;
import jdk.net.ExtendedSocketOptions;

/**
 * Wire format shared by {@link TcpBootstrap} (PE side) and the launcher's bootstrap server.
 * Big-endian Data streams over TCP.
 *
 * <pre>
 * client HELLO:   int MAGIC, int VERSION, byte[SECRET_BYTES] secret, int pe, long pid, int generation
 * server reply:   byte HELLO_OK | byte HELLO_REFUSED, text reason (then the server closes)
 * client -> server, any time after HELLO_OK:
 *   PUT       text key, value
 *   FENCE     byte flag (collective: answered by FENCE_DONE once every PE has sent FENCE)
 *   GET       int request, text key (answered by VALUE)
 *   ABORT     int status, text message
 *   FINALIZED
 *   HEARTBEAT (every HEARTBEAT_INTERVAL_MILLIS until FINALIZED)
 * server -> client, any time after HELLO_OK:
 *   FENCE_DONE    int firstFlagged: the lowest PE whose FENCE had flag 1, or -1
 *   VALUE         int request, byte found, [value if found]
 *   ABORT_NOTICE  text reason: the job is ending
 *   HEARTBEAT     (every HEARTBEAT_INTERVAL_MILLIS)
 * text = writeUTF, value = int length, bytes
 * </pre>
 *
 * <p><b>Values on demand</b> (version 4). The server keeps every value put, per generation, and
 * answers GET for one key; fences carry no values. A PUT becomes visible to GET when the fence
 * after it completes (the server moves the fence's puts into the visible store before it sends any
 * FENCE_DONE), so a value put before a fence is visible to every PE after it, as
 * {@link Bootstrap} promises. A PE therefore receives O(1) bytes per fence and the values of the
 * peers it asks about, and the server holds O(N) values in all (before version 4, every fence
 * shipped every value to every PE: O(N) bytes per PE, O(N^2) in all). GETs are answered in the
 * order received but carry a request number, since several threads of a PE may ask at once. The
 * flag of a FENCE lets the PEs agree, at O(1) cost per PE, whether any of them failed (the shared
 * memory capacity verdict): FENCE_DONE names the lowest PE that raised it.
 *
 * Message type codes are per direction, so the two sets may overlap.
 *
 * <p>A PE connects once per initialization of jshmem: {@code generation} is 0 for its first, n
 * after n finalizes (OpenSHMEM 1.6 lets a program initialize again after the last finalize). Each
 * generation has its own connection and its own fences, so a PE already initializing again never
 * meets, in a fence, a PE still finalizing the previous generation.
 *
 * <p>Heartbeats bound how long either end can take to notice that the other is gone when no FIN or
 * RST ever comes (its host lost power, the network between them was cut): the server gives up on a
 * PE that has not finalized after {@link #PE_SILENCE_LIMIT_MILLIS} without a message from it, a PE
 * gives up on the launcher after {@link #LAUNCHER_SILENCE_LIMIT_MILLIS}. TCP keepalive alone does
 * not do it: it only probes connections with nothing unacknowledged in flight, and once data is in
 * flight the kernel retransmits for about 15 minutes before giving up.
 */
public final class BootstrapProtocol {
    /** "JSHM": rejects connections that are not from a jshmem PE. */
    public static final int MAGIC = 0x4A53484D;
    /**
     * 2: heartbeats; 3: the generation in HELLO (re-initialization); 4: values on demand (GET/VALUE,
     * fences without data, with a flag).
     */
    public static final int VERSION = 4;
    public static final int SECRET_BYTES = 32;

    public static final byte HELLO_OK = 0;
    public static final byte HELLO_REFUSED = 1;

    // client -> server
    public static final byte PUT = 1;
    public static final byte FENCE = 2;
    public static final byte ABORT = 3;
    public static final byte FINALIZED = 4;
    public static final byte HEARTBEAT = 5;
    public static final byte GET = 6;

    // server -> client
    public static final byte FENCE_DONE = 1;
    public static final byte ABORT_NOTICE = 2;
    public static final byte SERVER_HEARTBEAT = 3;
    public static final byte VALUE = 4;

    /** Both ends send a heartbeat this often. */
    public static final long HEARTBEAT_INTERVAL_MILLIS = 5_000;
    /** The launcher considers a PE (before finalize) gone after this long without a message from it. */
    public static final int PE_SILENCE_LIMIT_MILLIS = 30_000;
    /**
     * A PE considers the launcher gone after this long without a message from it: longer than the
     * other way round, since the PE then halts (the launcher ends the job in any case).
     */
    public static final int LAUNCHER_SILENCE_LIMIT_MILLIS = 60_000;

    /** The heartbeat interval for a silence limit: every 5 s, or a third of the limit if that is shorter. */
    public static long heartbeatInterval(long silenceLimitMillis) {
        return Math.max(500, Math.min(HEARTBEAT_INTERVAL_MILLIS, silenceLimitMillis / 3));
    }

    /** Bound on one value, so a garbled length cannot make the peer allocate gigabytes. */
    public static final int MAX_VALUE_BYTES = 16 << 20;
    /** Messages are cut to this many chars, well inside writeUTF's 65535-byte limit. */
    private static final int MAX_TEXT_CHARS = 4000;

    /** TCP keepalive on bootstrap connections: first probe after this many idle seconds... */
    private static final int KEEPALIVE_IDLE_SECONDS = 10;
    /** ...then one every this many seconds... */
    private static final int KEEPALIVE_INTERVAL_SECONDS = 5;
    /** ...and the connection is dropped after this many unanswered probes: about 25 s in all. */
    private static final int KEEPALIVE_COUNT = 3;

    private BootstrapProtocol() {
    }

    /**
     * Turns on TCP keepalive with short timers, so a peer host that vanishes without closing the
     * connection (power loss, a cut network) shows up as a lost connection within about half a
     * minute on both ends. Best effort: platforms without the knobs keep their defaults.
     */
    public static void keepAlive(Socket socket) {
        try {
            socket.setKeepAlive(true);
            socket.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, KEEPALIVE_IDLE_SECONDS);
            socket.setOption(ExtendedSocketOptions.TCP_KEEPINTERVAL, KEEPALIVE_INTERVAL_SECONDS);
            socket.setOption(ExtendedSocketOptions.TCP_KEEPCOUNT, KEEPALIVE_COUNT);
        } catch (IOException | UnsupportedOperationException e) {
            // the system defaults then
        }
    }

    /** Writes a human-readable text (reason, message), truncated if longer than writeUTF allows. */
    public static void writeText(DataOutput out, String text) throws IOException {
        String s = text == null ? "" : text;
        out.writeUTF(s.length() > MAX_TEXT_CHARS ? s.substring(0, MAX_TEXT_CHARS) + "..." : s);
    }

    public static void writeValue(DataOutput out, byte[] value) throws IOException {
        out.writeInt(value.length);
        out.write(value);
    }

    public static byte[] readValue(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_VALUE_BYTES) {
            throw new ProtocolException("bootstrap value length " + length + " out of range");
        }
        byte[] value = new byte[length];
        in.readFully(value);
        return value;
    }
}
