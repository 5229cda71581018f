/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jshmem.core.base.Config;
import io.jshmem.core.transport.AmoOp;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The FFM bindings on their own: status decoding, struct layouts against the C headers, info parsing. */
class UcpBindingsTest {
    /** The layout printer from the notes; a copy ships in the test resources. */
    @TempDir
    Path dir;

    @BeforeAll
    static void needLibucp() {
        InProcessJob.assumeLibucp(UcpBindingsTest.class);
    }

    @Test
    void statusPointersDecodeLikeTheUcsMacros() {
        assertFalse(Ucp.isError(0));
        assertFalse(Ucp.isRequest(0));
        assertEquals(UcpAbi.UCS_OK, Ucp.ptrStatus(0));
        long request = 0x7f12_3456_7800L;
        assertTrue(Ucp.isRequest(request));
        assertFalse(Ucp.isError(request));
        assertEquals(UcpAbi.UCS_INPROGRESS, Ucp.ptrStatus(request));
        for (long code = -1; code >= -100; code--) { // (ucs_status_ptr_t) UCS_ERR_xx
            assertTrue(Ucp.isError(code), "error " + code);
            assertFalse(Ucp.isRequest(code));
            assertEquals((byte) code, Ucp.ptrStatus(code));
        }
        assertFalse(Ucp.isError(-101), "below UCS_ERR_LAST is an address");
        assertEquals(UcpAbi.UCS_ERR_CONNECTION_RESET, Ucp.ptrStatus(-25L));
    }

    @Test
    void statusStringsComeFromLibucs() {
        assertEquals("Success (0)", Ucp.statusString(UcpAbi.UCS_OK));
        assertEquals("Operation in progress (1)", Ucp.statusString(UcpAbi.UCS_INPROGRESS));
        assertEquals("No such device (-14)", Ucp.statusString((byte) -14));
        assertEquals("Endpoint timeout (-80)", Ucp.statusString(UcpAbi.UCS_ERR_ENDPOINT_TIMEOUT));
        assertTrue(Ucp.statusString(UcpAbi.UCS_ERR_CONNECTION_RESET).startsWith("Connection reset"),
                Ucp.statusString(UcpAbi.UCS_ERR_CONNECTION_RESET));
    }

    @Test
    void structSizesMatchTheNotes() {
        assertEquals(80, UcpAbi.PARAMS.byteSize());
        assertEquals(200, UcpAbi.WORKER_PARAMS.byteSize());
        assertEquals(104, UcpAbi.EP_PARAMS.byteSize());
        assertEquals(40, UcpAbi.MEM_MAP_PARAMS.byteSize());
        assertEquals(32, UcpAbi.MEM_ATTR.byteSize());
        assertEquals(72, UcpAbi.REQUEST_PARAM.byteSize());
        assertEquals(4, UcpAbi.REQ_FLAGS);
        assertEquals(24, UcpAbi.REQ_DATATYPE);
        assertEquals(40, UcpAbi.REQ_REPLY_BUFFER);
        assertEquals(64, UcpAbi.dtContig(8));
        assertEquals(32, UcpAbi.dtContig(4));
        assertEquals(8, UcpAbi.POLLFD.byteSize());
    }

    /**
     * Compiles the layout printer against the installed UCX headers and compares every struct
     * size, field offset and size, and every constant of the same name in {@link UcpAbi}.
     */
    @Test
    void layoutsAndConstantsMatchTheCHeaders() throws Exception {
        Path gcc = onPath("gcc");
        if (gcc == null || !Files.exists(Path.of("/usr/include/ucp/api/ucp.h"))) {
            String why = gcc == null ? "no gcc on the PATH" : "no UCX headers (apt-get install libucx-dev)";
            System.out.println("layoutsAndConstantsMatchTheCHeaders skipped: " + why);
            assumeTrue(false, why);
        }
        Path source = dir.resolve("ucx_layout.c");
        try (InputStream in = UcpBindingsTest.class.getResourceAsStream("/ucx_layout.c")) {
            assertNotNull(in, "ucx_layout.c in the test resources");
            Files.copy(in, source);
        }
        Path exe = dir.resolve("ucx_layout");
        String compiled = run(List.of(gcc.toString(), source.toString(), "-o", exe.toString()));
        assertTrue(Files.isExecutable(exe), "gcc failed: " + compiled);
        String out = run(List.of(exe.toString()));

        Map<String, StructLayout> structs = Map.of(
                "ucp_params_t", UcpAbi.PARAMS, "ucp_worker_params_t", UcpAbi.WORKER_PARAMS, "ucp_ep_params_t", UcpAbi.EP_PARAMS,
                "ucp_mem_map_params_t", UcpAbi.MEM_MAP_PARAMS, "ucp_mem_attr_t", UcpAbi.MEM_ATTR,
                "ucp_request_param_t", UcpAbi.REQUEST_PARAM, "ucp_am_handler_param_t", UcpAbi.AM_HANDLER_PARAMS);
        Map<String, Long> scalarSizes = Map.of("ucs_status_t", 1L, "ucs_thread_mode_t", 4L, "ucp_atomic_op_t", 4L,
                "ucp_datatype_t", 8L, "ucp_err_handling_mode_t", 4L, "ucs_memory_type_t", 4L);
        List<String> mismatches = new ArrayList<>();
        int fields = 0;
        int constants = 0;
        Matcher m = Pattern.compile("(?m)^sizeof\\((\\w+)\\)=(\\d+)").matcher(out);
        while (m.find()) {
            long size = Long.parseLong(m.group(2));
            StructLayout s = structs.get(m.group(1));
            Long expected = s != null ? Long.valueOf(s.byteSize()) : scalarSizes.get(m.group(1));
            if (expected == null) {
                mismatches.add("no Java layout for " + m.group(1));
            } else if (expected != size) {
                mismatches.add("sizeof(" + m.group(1) + ") is " + size + " in C, " + expected + " in Java");
            }
        }
        m = Pattern.compile("(?m)^\\s+(\\w+)\\.(\\w+) @(\\d+) \\(size (\\d+)\\)").matcher(out);
        while (m.find()) {
            StructLayout s = structs.get(m.group(1));
            MemoryLayout.PathElement path = MemoryLayout.PathElement.groupElement(m.group(2));
            long offset = Long.parseLong(m.group(3));
            long size = Long.parseLong(m.group(4));
            if (s == null || !hasMember(s, m.group(2))) {
                mismatches.add("no Java field " + m.group(1) + "." + m.group(2));
                continue;
            }
            fields++;
            if (s.byteOffset(path) != offset || s.select(path).byteSize() != size) {
                mismatches.add(m.group(1) + "." + m.group(2) + " is @" + offset + " size " + size + " in C, @"
                        + s.byteOffset(path) + " size " + s.select(path).byteSize() + " in Java");
            }
        }
        m = Pattern.compile("(?m)^\\s+([A-Za-z_]\\w*(?:\\(\\d+\\))?)=(-?\\d+)$").matcher(out);
        while (m.find()) {
            String name = m.group(1);
            long value = Long.parseLong(m.group(2));
            Long java;
            Matcher contig = Pattern.compile("ucp_dt_make_contig\\((\\d+)\\)").matcher(name);
            if (contig.matches()) {
                java = UcpAbi.dtContig(Long.parseLong(contig.group(1)));
            } else {
                java = constant(name);
            }
            if (java == null) {
                continue; // a constant the bindings do not use
            }
            constants++;
            if (java != value) {
                mismatches.add(name + " is " + value + " in C, " + java + " in Java");
            }
        }
        System.out.println("layout check: " + fields + " struct fields and " + constants + " constants compared with gcc");
        assertTrue(mismatches.isEmpty(), String.join("\n", mismatches));
        assertTrue(fields >= 40, "only " + fields + " fields compared:\n" + out);
        assertTrue(constants >= 35, "only " + constants + " constants compared:\n" + out);
    }

    private static boolean hasMember(GroupLayout g, String name) {
        return g.memberLayouts().stream().anyMatch(l -> l.name().filter(name::equals).isPresent());
    }

    private static Long constant(String name) throws IllegalAccessException {
        try {
            Field f = UcpAbi.class.getDeclaredField(name);
            f.setAccessible(true);
            return ((Number) f.get(null)).longValue();
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    private static Path onPath(String exe) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(d, exe);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timeout: " + command);
        return out;
    }

    @Test
    void atomicOpsMapToUcpOpcodes() {
        assertEquals(UcpAbi.UCP_ATOMIC_OP_OR, UcxTransport.opcode(AmoOp.FETCH));
        assertEquals(UcpAbi.UCP_ATOMIC_OP_SWAP, UcxTransport.opcode(AmoOp.SET));
        assertEquals(UcpAbi.UCP_ATOMIC_OP_SWAP, UcxTransport.opcode(AmoOp.SWAP));
        assertEquals(UcpAbi.UCP_ATOMIC_OP_CSWAP, UcxTransport.opcode(AmoOp.COMPARE_SWAP));
        assertEquals(UcpAbi.UCP_ATOMIC_OP_ADD, UcxTransport.opcode(AmoOp.FETCH_ADD));
        assertEquals(UcpAbi.UCP_ATOMIC_OP_ADD, UcxTransport.opcode(AmoOp.ADD));
        assertEquals(UcpAbi.UCP_ATOMIC_OP_AND, UcxTransport.opcode(AmoOp.AND));
        assertEquals(UcpAbi.UCP_ATOMIC_OP_XOR, UcxTransport.opcode(AmoOp.FETCH_XOR));
        for (AmoOp op : AmoOp.values()) {
            boolean postOnly = op == AmoOp.ADD || op == AmoOp.AND || op == AmoOp.OR || op == AmoOp.XOR;
            assertEquals(!postOnly, UcxTransport.fetches(op), op.toString());
        }
    }

    @Test
    void endpointInfoParsing() {
        String info = """
                #
                # UCP endpoint
                #
                #               peer: <no debug data>
                #                 lane[0]:  1:tcp/lo.0 md[1]                -> md[1]/tcp/sysdev[255] am am_bw#0 keepalive wireup
                #                 lane[1]:  3:posix/memory md[3]            -> md[3]/posix rma_bw#0
                #                 lane[2]:  1:tcp/eth0 md[1]                -> md[1]/tcp/sysdev[255] amo
                """;
        assertEquals(List.of("tcp", "posix"), WireUp.transportsIn(info));
        assertEquals(List.of("tcp"), WireUp.atomicTransportsIn(info));
        assertTrue(WireUp.cpuAtomics(info));
        // Device atomics (the network card performs them): not coherent with CPU atomics.
        String verbs = info + "#                 lane[3]:  5:rc_mlx5/mlx5_0:1 md[4]   -> md[4]/ib/sysdev[255] rma_bw#1 amo\n";
        assertEquals(List.of("tcp", "rc_mlx5"), WireUp.atomicTransportsIn(verbs));
        assertFalse(WireUp.cpuAtomics(verbs));
        // Writes into this PE's memory: over tcp only this PE's progress applies them; RDMA, cross-
        // memory attach or UCX's shared memory may write it without this PE knowing.
        String tcpOnly = info.replace("3:posix/memory md[3]            -> md[3]/posix", "1:tcp/eth0 md[1]   -> md[1]/tcp");
        assertEquals(List.of("tcp"), WireUp.transportsIn(tcpOnly));
        assertTrue(WireUp.writesNeedProgress(List.of(tcpOnly, tcpOnly)));
        assertFalse(WireUp.writesNeedProgress(List.of(tcpOnly, info)));
        assertFalse(WireUp.writesNeedProgress(List.of(tcpOnly, verbs)));
        assertFalse(WireUp.writesNeedProgress(List.of(tcpOnly.replace("tcp/eth0", "cma/memory"))));
        assertTrue(WireUp.writesNeedProgress(List.of()));
    }

    /** When puts with signal go as one active message: every endpoint one lane (eager), or tcp on one device (lazy). */
    @Test
    void putSignalAsActiveMessagesOnlyOverOneLane() {
        String one = """
                #               peer: <no debug data>
                #                 lane[0]:  1:tcp/lo.0 md[0]                -> md[0]/tcp/sysdev[255] rma_bw#0 am am_bw#0 wireup
                """;
        String two = """
                #                 lane[0]:  1:tcp/lo.0 md[0]                -> md[0]/tcp/sysdev[255] rma_bw#0 am am_bw#0
                #                 lane[1]:  0:tcp/eth0.0 md[0]              -> md[0]/tcp/sysdev[255] rma_bw#1 wireup
                """;
        assertTrue(WireUp.oneLane(List.of(one, one)));
        assertFalse(WireUp.oneLane(List.of(one, two)), "a second TCP device's lane is another stream");
        assertTrue(WireUp.amPutSignal(io.jshmem.core.base.Config.UcxPutSignal.AM, true));
        assertFalse(WireUp.amPutSignal(io.jshmem.core.base.Config.UcxPutSignal.RMA, true));
        assertFalse(WireUp.amPutSignal(io.jshmem.core.base.Config.UcxPutSignal.AM, false));
        // Each endpoint on its own, as every channel checks it when it is made.
        assertTrue(WireUp.orderedLane(one));
        assertFalse(WireUp.orderedLane(two), "two lanes from one peer with two interfaces");
        assertFalse(WireUp.orderedLane(one.replace("1:tcp/lo.0", "3:posix/memory")), "one lane, but shared memory");
        assertFalse(WireUp.orderedLane(""), "nothing printed: not known to be one lane");
        String self = "#      resource 0  :  md 0  dev 0  flags -- self/memory0\n";
        assertTrue(WireUp.oneTcpDevice(self + "#      resource 1  :  md 1  dev 1  flags -- tcp/lo\n"));
        assertFalse(WireUp.oneTcpDevice(self + "#      resource 1  :  md 1  dev 1  flags -- tcp/lo\n"
                + "#      resource 2  :  md 1  dev 2  flags -- tcp/eth0\n"));
        assertFalse(WireUp.oneTcpDevice(self + "#      resource 1  :  md 1  dev 1  flags -- tcp/lo\n"
                + "#      resource 2  :  md 2  dev 2  flags -- posix/memory\n"));
        assertFalse(WireUp.oneTcpDevice(self), "no transport to other PEs");
    }

    @Test
    void describeListsTransportsAndDevices() {
        List<String> lines = UcxInfo.describe();
        System.out.println(String.join("\n", lines));
        assertTrue(lines.get(0).startsWith("ucx: UCX 1."), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.matches("ucx:\\s+tcp on .*")), lines.toString());
        Map<String, List<String>> r = UcxInfo.resources("""
                #      resource 0  :  md 0  dev 0  flags -- self/memory0
                #      resource 1  :  md 1  dev 1  flags -- tcp/lo
                #      resource 2  :  md 1  dev 2  flags -- tcp/eth0
                #      resource 5  :  md 4  dev 3  flags -- cma/memory
                """);
        assertEquals(Map.of("self", List.of("memory0"), "tcp", List.of("lo", "eth0"), "cma", List.of("memory")), r);
    }

    @Test
    void environmentSettingsAreValidated() {
        assertEquals(60_000_000_000L, Config.Network.fromEnvironment(Map.of()).ucxTimeoutNanos());
        assertEquals(5_000_000_000L, Config.Network.fromEnvironment(Map.of("JSHMEM_UCX_TIMEOUT", "5")).ucxTimeoutNanos());
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(io.jshmem.ShmemException.class,
                () -> Config.Network.fromEnvironment(Map.of("JSHMEM_UCX_TIMEOUT", "soon"))).getMessage().contains("JSHMEM_UCX_TIMEOUT"));
        assertTrue(Config.Network.fromEnvironment(Map.of()).ucxPeerErrors());
        assertFalse(Config.Network.fromEnvironment(Map.of("JSHMEM_UCX_ERR_MODE", "none")).ucxPeerErrors());
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(io.jshmem.ShmemException.class,
                () -> Config.Network.fromEnvironment(Map.of("JSHMEM_UCX_ERR_MODE", "loud"))).getMessage().contains("use peer or none"));
        assertEquals(-1, Config.Network.fromEnvironment(Map.of()).ucxProgressSpinNanos());
        assertEquals(25_000L, Config.Network.fromEnvironment(Map.of("JSHMEM_UCX_PROGRESS_SPIN_US", "25")).ucxProgressSpinNanos());
        assertEquals("job", Config.Network.fromEnvironment(Map.of()).ucxListen());
    }

    @Test
    void listenersFollowTheJobsInterface() {
        // The launcher on loopback: UCX listens on lo only.
        assertEquals("lo", WireUp.interfaceTo("127.0.0.1:7000"));
        String lo = WireUp.netDevices("job", Map.of("JSHMEM_BOOTSTRAP", "127.0.0.1:7000"), false);
        assertTrue(lo != null && lo.startsWith("lo"), lo);
        assertEquals("eth9,lo", WireUp.netDevices("eth9,lo", Map.of(), true).replaceAll(",[a-z0-9_]+:\\d+", ""));
        // The user's UCX_NET_DEVICES wins; "all", an unknown launcher (PMI) and a loopback launcher
        // address in a job spanning nodes leave UCX's choice.
        assertNull(WireUp.netDevices("job", Map.of("JSHMEM_BOOTSTRAP", "127.0.0.1:7000", "UCX_NET_DEVICES", "eth0"), false));
        assertNull(WireUp.netDevices("all", Map.of("JSHMEM_BOOTSTRAP", "127.0.0.1:7000"), false));
        assertNull(WireUp.netDevices("job", Map.of(), false));
        assertNull(WireUp.netDevices("job", Map.of("JSHMEM_BOOTSTRAP", "127.0.0.1:7000"), true));
    }
}
