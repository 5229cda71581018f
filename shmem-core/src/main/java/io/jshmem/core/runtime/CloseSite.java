/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Whether {@code Shmem.close()} was called on an exception's way out: from the code javac
 * generates for try-with-resources and {@code finally}, which runs after a catch-all
 * ({@code Throwable}) handler. Java offers no way to see an exception in flight, but the caller's
 * bytecode shows it: the call site can only be reached through such a handler. A close() there
 * is not a finalize (the PE is failing, and its finalize must not let the others out of a barrier
 * it never reached); the exception itself is reported when it leaves the thread.
 *
 * <p>The class file is read with a small parser of its own (the JDK's java.lang.classfile costs
 * ~100 ms of class loading at every PE's close). Only the direct caller is looked at, and the one above it when the caller is itself a
 * {@code close} method (a wrapper closing the Shmem). Anything unreadable (no class file, a hidden
 * class) counts as a normal close, which is today's behaviour.
 */
final class CloseSite {
    private CloseSite() {
    }

    /** True if the frames above {@code ShmemRuntime.close()} show an exception unwinding. */
    static boolean unwinding() {
        try {
            return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames -> {
                List<StackWalker.StackFrame> callers = frames
                        .dropWhile(f -> f.getDeclaringClass() == CloseSite.class || f.getDeclaringClass() == ShmemRuntime.class)
                        .limit(2).toList();
                for (StackWalker.StackFrame f : callers) {
                    if (inCatchAllHandler(f)) {
                        return true;
                    }
                    if (!f.getMethodName().equals("close")) {
                        return false; // not a wrapper: its caller's state says nothing about this close
                    }
                }
                return false;
            });
        } catch (RuntimeException e) {
            return false; // unreadable: a normal close, as before this check existed
        }
    }

    private static boolean inCatchAllHandler(StackWalker.StackFrame f) {
        Class<?> c = f.getDeclaringClass();
        if (c.isHidden() || f.getByteCodeIndex() < 0) {
            return false;
        }
        byte[] bytes = classFile(c);
        if (bytes == null) {
            return false;
        }
        Method m = Method.find(ByteBuffer.wrap(bytes), f.getMethodName(), f.getDescriptor());
        return m != null && !m.normallyReachable().get(f.getByteCodeIndex());
    }

    /**
     * The class file of {@code c}: from its jar or directory when it came from one, else through its
     * class loader; null if unreadable. Not through the loader first: its lookup asks the JDK's
     * modules before the class path, and opening their image costs every PE milliseconds at close.
     */
    static byte[] classFile(Class<?> c) {
        String name = c.getName().replace('.', '/') + ".class";
        try {
            CodeSource cs = c.getProtectionDomain().getCodeSource();
            URL location = cs == null ? null : cs.getLocation();
            if (location != null && "file".equals(location.getProtocol())) {
                Path where = Path.of(location.toURI());
                if (Files.isDirectory(where)) {
                    Path file = where.resolve(name);
                    if (Files.isRegularFile(file)) {
                        return Files.readAllBytes(file);
                    }
                } else if (Files.isRegularFile(where)) {
                    // A multi-release jar's entry for this JDK, as the class loader would pick.
                    try (JarFile jar = new JarFile(where.toFile(), false, ZipFile.OPEN_READ, Runtime.version())) {
                        ZipEntry e = jar.getJarEntry(name);
                        if (e != null) {
                            try (InputStream in = jar.getInputStream(e)) {
                                return in.readAllBytes();
                            }
                        }
                    }
                }
            }
        } catch (IOException | URISyntaxException | RuntimeException e) {
            // through the class loader
        }
        try (InputStream in = c.getResourceAsStream("/" + name)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    /** The code of one method: its bytecode and exception table (catch type null: catch-all). */
    record Method(byte[] code, int[] handlerPcs, String[] catchTypes) {
        private static final int UTF8 = 1;
        private static final int CLASS = 7;

        /** Parses a class file (JVMS 4) as far as the Code attribute of the method asked for; null if absent. */
        static Method find(ByteBuffer b, String name, String descriptor) {
            b.position(8); // magic, versions
            int count = b.getShort() & 0xFFFF;
            String[] utf8 = new String[count];
            int[] classNames = new int[count];
            for (int i = 1; i < count; i++) {
                int tag = b.get();
                switch (tag) {
                    case UTF8 -> {
                        byte[] text = new byte[b.getShort() & 0xFFFF];
                        b.get(text);
                        utf8[i] = new String(text, StandardCharsets.UTF_8); // modified UTF-8: exact for ASCII names
                    }
                    case CLASS -> classNames[i] = b.getShort() & 0xFFFF;
                    case 8, 16, 19, 20 -> b.position(b.position() + 2);
                    case 15 -> b.position(b.position() + 3);
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> b.position(b.position() + 4);
                    case 5, 6 -> {
                        b.position(b.position() + 8);
                        i++; // takes two slots
                    }
                    default -> throw new IllegalArgumentException("constant pool tag " + tag);
                }
            }
            b.position(b.position() + 6); // access, this, super
            int interfaces = b.getShort() & 0xFFFF;
            b.position(b.position() + 2 * interfaces);
            skipMembers(b); // fields
            int methods = b.getShort() & 0xFFFF;
            for (int i = 0; i < methods; i++) {
                b.position(b.position() + 2);
                boolean wanted = name.equals(utf8[b.getShort() & 0xFFFF]) & descriptor.equals(utf8[b.getShort() & 0xFFFF]);
                int attributes = b.getShort() & 0xFFFF;
                for (int a = 0; a < attributes; a++) {
                    String attribute = utf8[b.getShort() & 0xFFFF];
                    int length = b.getInt();
                    int end = b.position() + length;
                    if (wanted && "Code".equals(attribute)) {
                        b.position(b.position() + 4); // max_stack, max_locals
                        byte[] code = new byte[b.getInt()];
                        b.get(code);
                        int handlers = b.getShort() & 0xFFFF;
                        int[] pcs = new int[handlers];
                        String[] types = new String[handlers];
                        for (int h = 0; h < handlers; h++) {
                            b.position(b.position() + 4); // start_pc, end_pc
                            pcs[h] = b.getShort() & 0xFFFF;
                            int type = b.getShort() & 0xFFFF;
                            types[h] = type == 0 ? null : utf8[classNames[type]];
                        }
                        return new Method(code, pcs, types);
                    }
                    b.position(end);
                }
            }
            return null;
        }

        private static void skipMembers(ByteBuffer b) {
            int members = b.getShort() & 0xFFFF;
            for (int i = 0; i < members; i++) {
                b.position(b.position() + 6);
                int attributes = b.getShort() & 0xFFFF;
                for (int a = 0; a < attributes; a++) {
                    b.position(b.position() + 2);
                    int length = b.getInt();
                    b.position(b.position() + length);
                }
            }
        }

        /**
         * The instructions reachable from the method's entry, or from a handler of a specific
         * exception type (a {@code catch} that handles it), without going through a catch-all handler.
         */
        BitSet normallyReachable() {
            Deque<Integer> work = new ArrayDeque<>();
            work.add(0);
            for (int h = 0; h < handlerPcs.length; h++) {
                if (catchTypes[h] != null && !catchTypes[h].equals("java/lang/Throwable")) {
                    work.add(handlerPcs[h]);
                }
            }
            BitSet reached = new BitSet();
            ByteBuffer b = ByteBuffer.wrap(code);
            while (!work.isEmpty()) {
                int at = work.pop();
                if (at < 0 || at >= code.length || reached.get(at)) {
                    continue;
                }
                reached.set(at);
                int op = code[at] & 0xFF;
                if ((op >= 153 && op <= 168) || op == 198 || op == 199) { // if*, goto, jsr, ifnull, ifnonnull
                    work.add(at + b.getShort(at + 1));
                    if (op != 167) { // goto
                        work.add(at + 3);
                    }
                } else if (op == 200 || op == 201) { // goto_w, jsr_w
                    work.add(at + b.getInt(at + 1));
                    if (op == 201) {
                        work.add(at + 5);
                    }
                } else if (op == 170 || op == 171) { // tableswitch, lookupswitch
                    int p = (at + 4) & ~3;
                    work.add(at + b.getInt(p));
                    if (op == 170) {
                        int n = b.getInt(p + 8) - b.getInt(p + 4) + 1;
                        for (int i = 0; i < n; i++) {
                            work.add(at + b.getInt(p + 12 + 4 * i));
                        }
                    } else {
                        int n = b.getInt(p + 4);
                        for (int i = 0; i < n; i++) {
                            work.add(at + b.getInt(p + 12 + 8 * i));
                        }
                    }
                } else if (!(op >= 172 && op <= 177) && op != 191 && op != 169) { // not a return, athrow, ret
                    work.add(at + length(op, at));
                }
            }
            return reached;
        }

        /** Length of the (non-branching) instruction at {@code at}, opcode {@code op}. */
        private int length(int op, int at) {
            if (op == 196) { // wide
                return (code[at + 1] & 0xFF) == 132 ? 6 : 4;
            }
            return LENGTHS.charAt(op) - '0';
        }

        /** Instruction lengths by opcode (0-201); branches and switches are handled apart. */
        private static final String LENGTHS =
                "1111111111111111232332222211111111111111111111111111112222211111111111111111111111111111111111111111"
                + "111111111111111111111111111111113111111111111111111113333333333333333200111111333333355323113311043355";
    }
}
