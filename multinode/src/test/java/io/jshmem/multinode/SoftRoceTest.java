/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.multinode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.multinode.Oshrun.Result;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The conformance cases across two containers over UCX's verbs transports, on Soft-RoCE: each
 * container (privileged, image jshmem-node-rdma) turns its own network interface into an RDMA
 * device with {@code rdma link add rxe_X type rxe netdev eth0}. That needs the host kernel's
 * rdma_rxe module; where the kernel has no RDMA support the test skips, printing the reason.
 */
class SoftRoceTest {
    @Test
    void conformanceCasesPassOverVerbsOnSoftRoce() throws Exception {
        Cluster.assumeDocker(Cluster.RDMA_IMAGE);
        Cluster.assumeUcxTransport();
        // First, cheaply: does the kernel speak RDMA netlink at all? (An unprivileged container will do.)
        Cluster.Docker probe = Cluster.docker("run", "--rm", "--cap-add", "NET_ADMIN", Cluster.RDMA_IMAGE, "rdma", "link",
                "show");
        if (probe.status() != 0) {
            skip("the host kernel has no RDMA support (rdma link show: " + probe.err().strip() + "); this test runs"
                    + " where the host kernel has RDMA and the rdma_rxe module");
        }
        // Each node's UCX uses its own rxe device (in the kernel's shared RDMA namespace mode every
        // container sees both devices).
        try (Cluster c = Cluster.start(Cluster.RDMA_IMAGE, 2, (i, node) -> node.withPrivilegedMode(true)
                .withEnv("UCX_NET_DEVICES", device(i) + ":1"))) {
            for (int i = 0; i < 2; i++) {
                Cluster.Docker add = Cluster.docker("exec", c.host(i), "rdma", "link", "add", device(i), "type", "rxe",
                        "netdev", "eth0");
                if (add.status() != 0) {
                    skip("the host kernel cannot create a Soft-RoCE device (rdma link add " + device(i)
                            + " type rxe netdev eth0: " + add.err().strip() + "); this test needs the rdma_rxe module");
                }
            }
            for (int i = 0; i < 2; i++) {
                Cluster.Docker devices = Cluster.docker("exec", c.host(i), "ucx_info", "-d");
                assertTrue(devices.out().contains("Device: " + device(i) + ":1")
                        && devices.out().matches("(?s).*Transport: (rc_verbs|ud_verbs).*"),
                        "UCX sees no verbs transport on " + device(i) + " in " + c.host(i) + ":\n" + devices.out());
            }
            Result r = Oshrun.run("conformance-rxe", List.of("--host", c.hostList(2), "--launch-agent", "docker exec -i",
                    "--bootstrap-address", c.gateway(), "--timeout", "240", "-x", "UCX_TLS=rc_verbs,ud_verbs,self",
                    "-cp", Cluster.REPO.resolve("conformance/target/classes").toString(),
                    "io.jshmem.conformance.CaseRunner"));
            MultiNodeTest.assertAllCasesPassed(r, 4);
            assertEquals(0, r.status());
            for (int i = 0; i < 2; i++) {
                Cluster.docker("exec", c.host(i), "rdma", "link", "delete", device(i));
            }
        }
    }

    private static void skip(String why) {
        System.out.println("[multinode] SKIPPED: " + why);
        Assumptions.abort(why);
    }

    private static String device(int node) {
        return "rxe_" + (char) ('a' + node);
    }
}
