/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static io.jshmem.core.bootstrap.BootstrapProtocol.FENCE_DONE;
import static io.jshmem.core.bootstrap.BootstrapProtocol.HELLO_REFUSED;
import static io.jshmem.core.bootstrap.BootstrapProtocol.VALUE;
import static io.jshmem.core.bootstrap.BootstrapProtocol.writeText;
import static io.jshmem.core.bootstrap.BootstrapProtocol.writeValue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The messages the {@link BootstrapServer} sends PEs, each encoded once into the bytes of one write. */
final class ServerMessages {
    private ServerMessages() {
    }

    static byte[] refusal(String reason) {
        return message(out -> {
            out.writeByte(HELLO_REFUSED);
            writeText(out, reason);
        });
    }

    static byte[] fenceDone(int firstFlagged) {
        return message(out -> {
            out.writeByte(FENCE_DONE);
            out.writeInt(firstFlagged);
        });
    }

    static byte[] valueReply(int request, byte[] value) {
        return message(out -> {
            out.writeByte(VALUE);
            out.writeInt(request);
            out.writeBoolean(value != null);
            if (value != null) {
                writeValue(out, value);
            }
        });
    }

    interface MessageWriter {
        void write(DataOutputStream out) throws IOException;
    }

    /** Encodes a message once, so it can be sent to every PE as one write. */
    static byte[] message(MessageWriter writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // cannot happen with an in-memory stream
        }
        return bytes.toByteArray();
    }
}
