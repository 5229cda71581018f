/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Byte values as PMI-2 strings: URL-safe base64 without padding (letters, digits, '-' and '_': no
 * character PMI-2's wire protocol treats specially), split into chunks that fit
 * {@code PMI2_MAX_VALLEN}. Chunk 0 starts with the number of chunks and a colon; the others are
 * stored under {@code key + "." + i}.
 */
final class PmiValues {
    /** Characters of encoded data in one chunk: PMI2_MAX_VALLEN is 1024 with the NUL, less the header. */
    static final int CHUNK_CHARS = 1000;

    private PmiValues() {
    }

    /** The strings to store: element i under {@link #chunkKey}(key, i). */
    static List<String> encode(byte[] value) {
        return encode(value, CHUNK_CHARS);
    }

    static List<String> encode(byte[] value, int chunkChars) {
        String text = Base64.getUrlEncoder().withoutPadding().encodeToString(value);
        int chunks = Math.max(1, (text.length() + chunkChars - 1) / chunkChars);
        List<String> out = new ArrayList<>(chunks);
        for (int i = 0; i < chunks; i++) {
            String part = text.substring(i * chunkChars, Math.min(text.length(), (i + 1) * chunkChars));
            out.add(i == 0 ? chunks + ":" + part : part);
        }
        return out;
    }

    /** The key of chunk {@code i} of the value stored under {@code key}. */
    static String chunkKey(String key, int i) {
        return i == 0 ? key : key + "." + i;
    }

    /** How many chunks the value whose chunk 0 is {@code first} has. */
    static int chunkCount(String first) {
        int colon = first.indexOf(':');
        if (colon <= 0) {
            throw new IllegalStateException("garbled PMI value (no chunk count): " + abbreviate(first));
        }
        try {
            int n = Integer.parseInt(first.substring(0, colon));
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalStateException("garbled PMI value (bad chunk count): " + abbreviate(first));
    }

    /** Joins the chunks (chunk 0 with its header) back into the value. */
    static byte[] decode(List<String> chunks) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < chunks.size(); i++) {
            String c = chunks.get(i);
            text.append(i == 0 ? c.substring(c.indexOf(':') + 1) : c);
        }
        return Base64.getUrlDecoder().decode(text.toString());
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? "\"" + s + "\"" : "\"" + s.substring(0, 40) + "...\"";
    }
}
