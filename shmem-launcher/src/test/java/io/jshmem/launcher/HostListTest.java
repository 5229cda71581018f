/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.launcher.HostList.Host;
import io.jshmem.launcher.HostList.Placement;
import io.jshmem.launcher.LaunchOptions.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostListTest {
    @TempDir
    Path dir;

    @Test
    void hostOptionTakesSlotCountsAndDefaultsToOne() throws UsageException {
        assertEquals(List.of(new Host("h1", 2), new Host("h2", 1), new Host("10.0.0.3", 4)),
                HostList.parseHostOption("h1:2,h2,10.0.0.3:4"));
        assertEquals(List.of(new Host("fe80::1", 3), new Host("::1", 1)), HostList.parseHostOption("[fe80::1]:3,::1"));
        assertEquals(List.of(new Host("user@node-7.example.org", 2)),
                HostList.parseHostOption("user@node-7.example.org:2"));
    }

    @Test
    void theSameNameTwiceIsOneNodeWithTheSlotsAddedUp() throws UsageException {
        assertEquals(List.of(new Host("a", 3), new Host("b", 2)), HostList.parseHostOption("a:2,b:2,a"));
    }

    @Test
    void badHostOptionsAreUsageErrors() {
        assertTrue(error(() -> HostList.parseHostOption("h1:0")).contains("positive number of slots, got \"0\""));
        assertTrue(error(() -> HostList.parseHostOption("h1:x")).contains("got \"x\""));
        assertTrue(error(() -> HostList.parseHostOption("h1,,h2")).contains("--host needs host[:slots]"));
        assertTrue(error(() -> HostList.parseHostOption("h1;rm -rf /")).contains("malformed host name"));
        assertTrue(error(() -> HostList.parseHostOption("-oProxyCommand=x")).contains("malformed host name"));
    }

    @Test
    void hostfileHasOneHostALineWithOptionalSlotsAndComments() throws IOException, UsageException {
        Path file = dir.resolve("hosts");
        Files.writeString(file, """
                # the cluster
                node1 slots=2
                   node2        # one slot

                node3 slots=4 # big one
                node1
                """);
        assertEquals(List.of(new Host("node1", 3), new Host("node2", 1), new Host("node3", 4)),
                HostList.readHostfile(file.toString()));
    }

    @Test
    void badHostfilesAreUsageErrorsNamingTheLine() throws IOException {
        Path file = dir.resolve("hosts");
        Files.writeString(file, "node1 slots=2\nnode2 cpus=4\n");
        String e = error(() -> HostList.readHostfile(file.toString()));
        assertTrue(e.contains("line 2") && e.contains("\"cpus=4\""), e);
        Files.writeString(file, "node1 slots=-1\n");
        assertTrue(error(() -> HostList.readHostfile(file.toString())).contains("line 1"));
        Files.writeString(file, "# nothing\n\n");
        assertTrue(error(() -> HostList.readHostfile(file.toString())).contains("names no host"));
        assertTrue(error(() -> HostList.readHostfile(dir.resolve("missing").toString()))
                .startsWith("cannot read host file"));
    }

    @Test
    void pesFillTheHostsInOrder() throws UsageException {
        List<Placement> p = HostList.place(List.of(new Host("a", 2), new Host("b", 2), new Host("c", 1)), 4, false);
        assertEquals("a a b b", hosts(p));
        assertEquals(List.of(0, 0, 1, 1), p.stream().map(x -> x.node().id()).toList());
        assertEquals(List.of(0, 1, 0, 1), p.stream().map(Placement::localPe).toList());
        assertEquals(List.of(2, 2, 2, 2), p.stream().map(x -> x.node().npes()).toList());
        assertEquals("a", hosts(HostList.place(List.of(new Host("a", 2), new Host("b", 2)), 1, false)));
        assertEquals(List.of("a", "b"), HostList.nodes(p).stream().map(HostList.Node::host).toList());
        assertEquals(List.of(0), HostList.nodes(HostList.localOnly(3)).stream().map(HostList.Node::id).toList());
    }

    /** --map-by node: round-robin over the hosts, a full host skipped, and round again when oversubscribed. */
    @Test
    void mapByNodeGoesRoundTheHosts() throws UsageException {
        List<Host> hosts = List.of(new Host("a", 2), new Host("b", 2), new Host("c", 1));
        List<Placement> p = HostList.place(hosts, 5, false, true);
        assertEquals("a b c a b", hosts(p));
        assertEquals(List.of(0, 0, 0, 1, 1), p.stream().map(Placement::localPe).toList());
        assertEquals(List.of(2, 2, 1, 2, 2), p.stream().map(x -> x.node().npes()).toList());
        assertEquals("a b c a b c a b", hosts(HostList.place(hosts, 8, true, true)));
        assertTrue(error(() -> HostList.place(hosts, 6, false, true)).contains("more than the 5 slots"));
    }

    @Test
    void morePesThanSlotsNeedsOversubscribe() throws UsageException {
        List<Host> hosts = List.of(new Host("a", 2), new Host("b", 1));
        assertTrue(error(() -> HostList.place(hosts, 4, false)).contains("more than the 3 slots"));
        List<Placement> p = HostList.place(hosts, 7, true);
        assertEquals("a a b a a b a", hosts(p));
        assertEquals(List.of(0, 1, 0, 2, 3, 1, 4), p.stream().map(Placement::localPe).toList());
        assertEquals(5, p.get(0).node().npes());
        assertEquals(2, p.get(2).node().npes());
    }

    @Test
    void localHostsAreRecognizedWithoutDns() {
        assertTrue(HostList.isLocal("localhost"));
        assertTrue(HostList.isLocal("LOCALHOST"));
        assertTrue(HostList.isLocal("127.0.0.1"));
        assertTrue(HostList.isLocal("127.0.0.2"));
        assertTrue(HostList.isLocal("::1"));
        assertFalse(HostList.isLocal("no-such-host.invalid"));
        assertFalse(HostList.isLocal("192.0.2.254") && !isMine("192.0.2.254"));
        assertFalse(HostList.isLocal("203.0.113.77"));
    }

    private static boolean isMine(String address) {
        try {
            return java.net.NetworkInterface.getByInetAddress(java.net.InetAddress.getByName(address)) != null;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void jobsWithoutHostsRunOnOneLocalNode() {
        List<Placement> p = HostList.localOnly(3);
        assertEquals(List.of(0, 1, 2), p.stream().map(Placement::localPe).toList());
        assertTrue(p.stream().allMatch(x -> x.node().id() == 0 && x.node().local() && x.node().npes() == 3));
    }

    private static String hosts(List<Placement> placements) {
        return placements.stream().map(x -> x.node().host()).collect(Collectors.joining(" "));
    }

    private interface Call {
        void run() throws UsageException;
    }

    private static String error(Call call) {
        return assertThrows(UsageException.class, call::run).getMessage();
    }
}
