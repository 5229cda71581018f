/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What oshrun prints of the PEs' standard error: repeated jshmem messages and stack traces once,
 * naming the PEs; everything else as it comes. (A real 20-PE job: conformance ShmCapacityTest.)
 */
class MessageAggregatorTest {
    private static final String WHY = "not enough shared memory in /dev/shm: the 4 PEs need 8 bytes";

    /** Each PE's whole standard error through an aggregator; what it printed. */
    private static List<String> run(List<String> perPe) throws InterruptedException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(sink, true, StandardCharsets.UTF_8);
        MessageAggregator a = new MessageAggregator(perPe.size(), err);
        List<Thread> readers = new ArrayList<>();
        for (int pe = 0; pe < perPe.size(); pe++) {
            readers.add(a.startReader(pe, new ByteArrayInputStream(perPe.get(pe).getBytes(StandardCharsets.UTF_8))));
        }
        for (Thread t : readers) {
            t.join();
        }
        a.close();
        return sink.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static String trace(int pe, String message) {
        return "Exception in thread \"main\" io.jshmem.ShmemException: PE " + pe + ": " + message + "\n"
                + "\tat io.jshmem.core.heap.ShmCapacity.failTogether(ShmCapacity.java:69)\n"
                + "\tat io.jshmem.Shmem.init(Shmem.java:35)\n"
                + "Caused by: java.io.IOException: PE " + pe + " gave up\n"
                + "\t... 2 more\n";
    }

    @Test
    void aMessageOfEveryPeIsPrintedOnceNamingThem() throws Exception {
        List<String> in = new ArrayList<>();
        for (int pe = 0; pe < 4; pe++) {
            in.add("jshmem: PE " + pe + ": " + WHY + "\n");
        }
        assertEquals(List.of("jshmem: PEs 0-3: " + WHY), run(in));
    }

    @Test
    void aMessageOfOnePeIsPrintedAsItWasAndDifferentOnesApart() throws Exception {
        List<String> out = run(List.of("jshmem: PE 0: lost PE 10\n", "", "jshmem: PE 2: lost PE 10\n",
                "jshmem: PE 3: something else\n"));
        // in the order the PEs printed them: the readers' threads decide
        assertEquals(List.of("jshmem: PE 3: something else", "jshmem: PEs 0,2: lost PE 10"), out.stream().sorted().toList());
    }

    @Test
    void aStackTraceOfSeveralPesIsPrintedOnceAndOneRepeatingAMessageIsOneLine() throws Exception {
        List<String> out = run(List.of(trace(0, "deliberate"), trace(1, "deliberate"), trace(2, "deliberate")));
        assertEquals(List.of("Exception in thread \"main\" io.jshmem.ShmemException: PEs 0-2: deliberate",
                "\tat io.jshmem.core.heap.ShmCapacity.failTogether(ShmCapacity.java:69)",
                "\tat io.jshmem.Shmem.init(Shmem.java:35)",
                "Caused by: java.io.IOException: PEs 0-2 gave up",
                "\t... 2 more"), out);

        List<String> in = new ArrayList<>();
        for (int pe = 0; pe < 3; pe++) {
            in.add("jshmem: PE " + pe + ": " + WHY + "\n" + trace(pe, WHY));
        }
        assertEquals(List.of("jshmem: PEs 0-2: " + WHY, "Exception in thread \"main\" io.jshmem.ShmemException on PEs 0-2:"
                + " as jshmem's message above says (its stack trace: oshrun --no-aggregate)"), run(in));
    }

    @Test
    void otherLinesPassUntouchedInTheirOrder() throws Exception {
        List<String> out = run(List.of("a\njshmem: PE 0: " + WHY + "\nb\n", "a\njshmem: PE 1: " + WHY + "\nb\n"
                + "java.lang.Exception: printed by the program\n\tat X.main(X.java:1)\nlast\n"));
        List<String> program = out.stream().filter(l -> !l.startsWith("jshmem: ")).toList();
        assertEquals(List.of("a", "b"), program.stream().filter(l -> l.length() == 1).distinct().toList());
        assertEquals(2, program.stream().filter(l -> l.equals("b")).count(), out.toString());
        assertTrue(out.containsAll(List.of("java.lang.Exception: printed by the program", "\tat X.main(X.java:1)",
                "last", "jshmem: PEs 0-1: " + WHY)), out.toString());
        assertEquals(8, out.size(), out.toString());
    }

    /** A prompt without a newline is not held back (waits for it without a time limit of its own). */
    @Test
    void aPartialLineOfTheProgramIsPassedOnAtOnce() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(sink, true, StandardCharsets.UTF_8);
        MessageAggregator a = new MessageAggregator(2, err);
        PipedOutputStream pe0 = new PipedOutputStream();
        Thread reader = a.startReader(0, new PipedInputStream(pe0));
        pe0.write("Enter a number: ".getBytes(StandardCharsets.UTF_8));
        pe0.flush();
        while (!sink.toString(StandardCharsets.UTF_8).equals("Enter a number: ")) {
            assertTrue(reader.isAlive(), sink.toString(StandardCharsets.UTF_8));
            Thread.sleep(10);
        }
        pe0.close();
        reader.join();
        a.close();
        assertEquals("Enter a number: ", sink.toString(StandardCharsets.UTF_8));
    }

    @Test
    void normalizeReplacesOnlyThePesOwnNumber() {
        assertEquals("jshmem: PE \u0001: lost PE 70 and PE 17", MessageAggregator.normalize("jshmem: PE 7: lost PE 70 and PE 17", 7));
        BitSet pes = new BitSet();
        pes.set(0, 4);
        pes.set(5);
        pes.set(7, 10);
        assertEquals("0-3,5,7-9", MessageAggregator.ranges(pes));
    }
}
