package io.jshmem.core.bootstrap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.ProtocolException;

/**
 * Wire format shared by {@link TcpBootstrap} (PE side) and the launcher's bootstrap server.
 * Big-endian Data streams over TCP.
 *
 * <pre>
 * client HELLO:   int MAGIC, int VERSION, byte[SECRET_BYTES] secret, int pe, long pid
 * server reply:   byte HELLO_OK | byte HELLO_REFUSED, text reason (then the server closes)
 * client -> server, any time after HELLO_OK:
 *   PUT       text key, value
 *   FENCE     (collective: answered by FENCE_DONE once every PE has sent FENCE)
 *   ABORT     int status, text message
 *   FINALIZED
 * server -> client, any time after HELLO_OK:
 *   FENCE_DONE    int count, count x (text key, value): the puts made since the previous fence
 *   ABORT_NOTICE  text reason: the job is ending
 * text = writeUTF, value = int length, bytes
 * </pre>
 *
 * Message type codes are per direction, so the two sets may overlap.
 */
public final class BootstrapProtocol {
    /** "JSHM": rejects connections that are not from a jshmem PE. */
    public static final int MAGIC = 0x4A53484D;
    public static final int VERSION = 1;
    public static final int SECRET_BYTES = 32;

    public static final byte HELLO_OK = 0;
    public static final byte HELLO_REFUSED = 1;

    // client -> server
    public static final byte PUT = 1;
    public static final byte FENCE = 2;
    public static final byte ABORT = 3;
    public static final byte FINALIZED = 4;

    // server -> client
    public static final byte FENCE_DONE = 1;
    public static final byte ABORT_NOTICE = 2;

    /** Bound on one value, so a garbled length cannot make the peer allocate gigabytes. */
    public static final int MAX_VALUE_BYTES = 16 << 20;
    /** Messages are cut to this many chars, well inside writeUTF's 65535-byte limit. */
    private static final int MAX_TEXT_CHARS = 4000;

    private BootstrapProtocol() {
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
