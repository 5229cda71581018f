/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.launcher.HostList.Node;
import io.jshmem.launcher.LaunchOptions.UsageException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.List;
import org.junit.jupiter.api.Test;

class BootstrapEndpointTest {
    private static final Node LOCAL = new Node(0, "localhost", 2, true);
    /** A name no resolver knows, as a container name used with docker exec. */
    private static final Node UNRESOLVABLE = new Node(1, "jshmem-no-such-host.invalid", 2, false);

    @Test
    void localJobsListenOnLoopbackOnly() throws UsageException {
        BootstrapEndpoint e = BootstrapEndpoint.choose(null, List.of(LOCAL, new Node(1, "127.0.0.1", 2, true)));
        assertTrue(e.bind().getAddress().isLoopbackAddress());
        assertEquals(0, e.bind().getPort());
        assertEquals("127.0.0.1:4000", e.hostPort(0, 4000));
        assertEquals("127.0.0.1:4000", e.hostPort(1, 4000));
    }

    @Test
    void anExplicitAddressIsWhereItListensAndWhatEveryoneIsTold() throws UsageException {
        BootstrapEndpoint e = BootstrapEndpoint.choose("127.0.0.1:7777", List.of(LOCAL, UNRESOLVABLE));
        assertEquals("127.0.0.1", e.bind().getAddress().getHostAddress());
        assertEquals(7777, e.bind().getPort());
        assertEquals("127.0.0.1:7777", e.hostPort(1, 7777));
        assertEquals("[0:0:0:0:0:0:0:1]:5", BootstrapEndpoint.choose("::1", List.of(LOCAL)).hostPort(0, 5));
    }

    @Test
    void theWildcardListensEverywhereAndTellsEachHostItsRoute() throws Exception {
        BootstrapEndpoint e = BootstrapEndpoint.choose("0.0.0.0", List.of(LOCAL, UNRESOLVABLE));
        assertTrue(e.bind().getAddress().isAnyLocalAddress());
        assertEquals("127.0.0.1:1", e.hostPort(0, 1));
        assertOwnNonLoopback(e.advertised().get(1));
    }

    @Test
    void automaticallyOneRemoteNetworkMeansOneSpecificAddressForAll() throws Exception {
        BootstrapEndpoint e = BootstrapEndpoint.choose(null, List.of(LOCAL, UNRESOLVABLE));
        assertFalse(e.bind().getAddress().isAnyLocalAddress());
        assertOwnNonLoopback(e.bind().getAddress().getHostAddress());
        assertEquals(e.advertised().get(1), e.advertised().get(0), "local PEs use the same address");
    }

    @Test
    void anUnresolvableExplicitAddressIsAUsageError() {
        String message = assertThrows(UsageException.class,
                () -> BootstrapEndpoint.choose("jshmem-no-such-host.invalid", List.of(LOCAL))).getMessage();
        assertTrue(message.contains("cannot resolve"), message);
    }

    private static void assertOwnNonLoopback(String address) throws Exception {
        assertNotNull(address);
        InetAddress a = InetAddress.getByName(address);
        assertFalse(a.isLoopbackAddress(), address);
        assertNotNull(NetworkInterface.getByInetAddress(a), address + " is not an address of this machine");
    }
}
