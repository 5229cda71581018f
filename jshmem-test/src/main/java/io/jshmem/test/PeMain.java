/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.test;

import io.jshmem.Shmem;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.opentest4j.TestAbortedException;

/**
 * The program each PE of a {@link ShmemTest} job runs: {@code PeMain <test class> <method>}. Reports
 * its outcome on standard output as one line starting with {@value #MARKER}.
 */
public final class PeMain {
    /** Prefix of the outcome line: {@code MARKER PASSED|SKIPPED|FAILED <pe> <message>}. */
    public static final String MARKER = "@@jshmem-test";

    private PeMain() {
    }

    /**
     * Runs the test method in this PE.
     *
     * @param args the test class's binary name and the method's name
     * @throws Exception if the class or method cannot be found or instantiated
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: PeMain <test class> <method>");
        }
        Class<?> testClass = Class.forName(args[0]);
        Method method = find(testClass, args[1]);
        method.setAccessible(true);
        Constructor<?> constructor = testClass.getDeclaredConstructor();
        constructor.setAccessible(true);
        Object instance = constructor.newInstance();
        try (Shmem shmem = Shmem.init()) {
            int pe = shmem.myPe();
            try {
                if (method.getParameterCount() == 1) {
                    method.invoke(instance, shmem);
                } else {
                    method.invoke(instance);
                }
                report("PASSED", pe, "");
            } catch (InvocationTargetException e) {
                Throwable t = e.getCause();
                if (t instanceof TestAbortedException) {
                    report("SKIPPED", pe, String.valueOf(t.getMessage()));
                } else {
                    StringWriter trace = new StringWriter();
                    t.printStackTrace(new PrintWriter(trace));
                    System.out.print(trace);
                    report("FAILED", pe, t.toString().replace('\n', ' '));
                    shmem.globalExit(1); // ends the other PEs, which may be waiting for this one
                }
            }
        }
    }

    private static void report(String outcome, int pe, String message) {
        System.out.println(MARKER + " " + outcome + " " + pe + " " + message);
        System.out.flush();
    }

    static Method find(Class<?> c, String name) throws NoSuchMethodException {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                if (m.getName().equals(name) && (m.getParameterCount() == 0
                        || (m.getParameterCount() == 1 && m.getParameterTypes()[0] == Shmem.class))) {
                    return m;
                }
            }
        }
        throw new NoSuchMethodException(c.getName() + "." + name + "() or (Shmem)");
    }
}
