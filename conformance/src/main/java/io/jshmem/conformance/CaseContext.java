/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.SymArray;
import io.jshmem.SymType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a case body works with: the library handle, this PE's number, the symmetric objects it
 * allocated (freed collectively when the case ends) and the failures it recorded. Checks record a
 * failure and return, so a case always goes through the same collective calls on every PE.
 */
public final class CaseContext {
    /** Keep only the first few failure messages of a case; count the rest. */
    private static final int MAX_MESSAGES = 8;
    /** Heap size per PE when SHMEM_SYMMETRIC_SIZE is not set (the runtime's documented default). */
    public static final long DEFAULT_HEAP_SIZE = 128L << 20;
    /** CONFORMANCE_STRICT_ARGUMENTS=1: bad Java-array arguments must also raise ShmemException naming the PE. */
    static final boolean STRICT_ARGUMENTS = "1".equals(System.getenv("CONFORMANCE_STRICT_ARGUMENTS"));

    public final Shmem shmem;
    public final int me;
    public final int npes;
    public final String caseName;
    private final List<String> messages = new ArrayList<>();
    private int failures;
    private final List<SymArray<?>> allocated = new ArrayList<>();

    CaseContext(Shmem shmem, String caseName) {
        this.shmem = shmem;
        this.me = shmem.myPe();
        this.npes = shmem.nPes();
        this.caseName = caseName;
    }

    /** The PE to the right in the ring. */
    public int right() {
        return (me + 1) % npes;
    }

    /** The PE to the left in the ring. */
    public int left() {
        return (me - 1 + npes) % npes;
    }

    // ---------------------------------------------------------------- recording

    public void fail(String message) {
        failures++;
        if (messages.size() < MAX_MESSAGES) {
            messages.add(message);
        }
    }

    public int failures() {
        return failures;
    }

    /** One line describing the failures. */
    public String failureSummary() {
        String s = String.join(" | ", messages);
        return failures > messages.size() ? s + " | (" + (failures - messages.size()) + " more failures)" : s;
    }

    public boolean check(boolean condition, String message) {
        if (!condition) {
            fail(message);
        }
        return condition;
    }

    public boolean checkEq(long expected, long actual, String what) {
        return check(expected == actual, what + ": expected " + expected + ", got " + actual);
    }

    public boolean checkEquals(Object expected, Object actual, String what) {
        return check(java.util.Objects.equals(expected, actual), what + ": expected " + expected + ", got " + actual);
    }

    /** Skips the case (call it identically on every PE, before any collective call). */
    public void skip(String reason) {
        throw new SkipCase(reason);
    }

    // ---------------------------------------------------------------- expected failures

    /** Whether {@code text} names this PE as "PE k" (not "PE k0"). */
    public boolean namesThisPe(String text) {
        return text != null && Pattern.compile("\\bPE " + me + "(?!\\d)").matcher(text).find();
    }

    /**
     * Runs {@code action}, which must throw a {@link ShmemException} whose message names this PE
     * and contains each of {@code mustContain} (case-insensitively). Returns the exception, or null
     * after recording a failure.
     */
    public ShmemException expectShmemException(String what, Runnable action, String... mustContain) {
        Throwable t = run(action);
        if (t == null) {
            fail(what + ": no exception (expected ShmemException)");
            return null;
        }
        if (!(t instanceof ShmemException e)) {
            fail(what + ": expected ShmemException, got " + describe(t));
            return null;
        }
        checkMessage(what, e, true, mustContain);
        return e;
    }

    /**
     * For errors in a Java-array argument of the local side: {@code action} must throw a
     * {@link ShmemException} (whose message names this PE), an {@link IllegalArgumentException}
     * or an {@link IndexOutOfBoundsException}. With CONFORMANCE_STRICT_ARGUMENTS=1 only a
     * ShmemException naming the PE will do (the API documents no other exception).
     */
    public Throwable expectArgumentException(String what, Runnable action) {
        if (STRICT_ARGUMENTS) {
            return expectShmemException(what, action);
        }
        Throwable t = run(action);
        if (t == null) {
            fail(what + ": no exception (expected ShmemException, IllegalArgumentException or IndexOutOfBoundsException)");
            return null;
        }
        if (t instanceof ShmemException e) {
            checkMessage(what, e, true);
        } else if (!(t instanceof IllegalArgumentException || t instanceof IndexOutOfBoundsException)) {
            fail(what + ": expected ShmemException, IllegalArgumentException or IndexOutOfBoundsException, got "
                    + describe(t));
        }
        return t;
    }

    /**
     * Runs {@code action}, which must throw a {@link NullPointerException} with exactly
     * {@code message} (the same on shared memory and over the network transport). Returns whether it did.
     */
    public boolean expectNullPointer(String what, Runnable action, String message) {
        Throwable t = run(action);
        if (!(t instanceof NullPointerException)) {
            fail(what + ": expected NullPointerException(\"" + message + "\"), got " + (t == null ? "no exception" : describe(t)));
            return false;
        }
        return check(message.equals(t.getMessage()), what + ": NullPointerException message is \"" + t.getMessage()
                + "\", expected \"" + message + "\"");
    }

    /**
     * Runs {@code action}, which must throw an {@link IllegalArgumentException} whose message
     * contains each of {@code mustContain}. Returns the exception, or null after recording a failure.
     */
    public IllegalArgumentException expectIllegalArgument(String what, Runnable action, String... mustContain) {
        Throwable t = run(action);
        if (!(t instanceof IllegalArgumentException e)) {
            fail(what + ": expected IllegalArgumentException, got " + (t == null ? "no exception" : describe(t)));
            return null;
        }
        checkMessage(what, e, false, mustContain);
        return e;
    }

    private void checkMessage(String what, Throwable e, boolean namePe, String... mustContain) {
        String m = e.getMessage();
        if (namePe && !namesThisPe(m)) {
            fail(what + ": message does not name this PE (\"PE " + me + "\"): " + m);
        }
        for (String s : mustContain) {
            if (m == null || !m.toLowerCase(Locale.ROOT).contains(s.toLowerCase(Locale.ROOT))) {
                fail(what + ": message does not contain \"" + s + "\": " + m);
            }
        }
    }

    /** What {@code action} threw, or null. */
    static Throwable run(Runnable action) {
        try {
            action.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** "ClassName: message (at Frame)" with the innermost conformance frame, on one line. */
    public static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder(t.toString());
        for (StackTraceElement f : t.getStackTrace()) {
            if (f.getClassName().startsWith("io.jshmem.conformance")) {
                sb.append(" (at ").append(f.getClassName().substring("io.jshmem.conformance.".length()))
                        .append('.').append(f.getMethodName()).append(':').append(f.getLineNumber()).append(')');
                break;
            }
        }
        if (t.getCause() != null) {
            sb.append(" caused by ").append(t.getCause());
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- allocation helpers

    /** shmem.calloc, freed when the case ends. */
    public <T extends SymArray<?>> T calloc(SymType<T> type, long length) {
        return track(shmem.calloc(type, length));
    }

    /** shmem.malloc, freed when the case ends. */
    public <T extends SymArray<?>> T malloc(SymType<T> type, long length) {
        return track(shmem.malloc(type, length));
    }

    /** Registers an object to be freed when the case ends (if still live then). */
    public <T extends SymArray<?>> T track(T object) {
        allocated.add(object);
        return object;
    }

    /** Frees, in reverse order, the tracked objects that are still live. Collective. */
    void releaseAll() {
        for (int i = allocated.size() - 1; i >= 0; i--) {
            SymArray<?> o = allocated.get(i);
            if (shmem.addrAccessible(o, me)) {
                shmem.free(o);
            }
        }
        allocated.clear();
    }

    // ---------------------------------------------------------------- environment

    /** This job's SHMEM_SYMMETRIC_SIZE in bytes (the default when not set). */
    public static long heapSize() {
        String v = System.getenv("SHMEM_SYMMETRIC_SIZE");
        if (v == null || v.isBlank()) {
            return DEFAULT_HEAP_SIZE;
        }
        String s = v.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("b") && s.length() > 1 && !Character.isDigit(s.charAt(s.length() - 2))) {
            s = s.substring(0, s.length() - 1);
        }
        int shift = switch (s.charAt(s.length() - 1)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        String digits = shift == 0 ? s : s.substring(0, s.length() - 1).trim();
        return Long.parseLong(digits) << shift;
    }

    /** Whether SHMEM_DEBUG is on for this job (as the runtime reads it). */
    public static boolean debugEnabled() {
        String v = System.getenv("SHMEM_DEBUG");
        if (v == null) {
            return false;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "", "0", "false", "no", "off" -> false;
            default -> true;
        };
    }
}
