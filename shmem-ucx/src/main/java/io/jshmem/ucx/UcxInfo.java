/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.jshmem.core.base.Settings;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What bin/shmem-info reports about UCX: the library version and the transports/devices it offers here. */
final class UcxInfo {
    private UcxInfo() {
    }

    private static final Pattern RESOURCE = Pattern.compile("resource\\s+\\d+\\s*:.*--\\s+([A-Za-z0-9_]+)/(\\S+)");

    /** One line per fact, or a line saying why UCX is unavailable. Creates (and destroys) a UCP context. */
    static List<String> describe() {
        String why = Ucp.unavailableReason();
        if (why != null) {
            return List.of("ucx: unavailable: " + why);
        }
        List<String> lines = new ArrayList<>();
        lines.add("ucx: UCX " + Ucp.version() + " (" + Ucp.LIBRARY + "), used off-node or with SHMEM_TRANSPORT=ucx");
        lines.add("ucx: JSHMEM_UCX_WIREUP=auto wires up " + (Ucp.abortsOnPeerLossInWireUp()
                ? "eagerly (every off-node PE at init): this UCX can abort the process when a peer fails during a"
                        + " wire-up, which a first operation to a PE that just died would be"
                : "lazily (an endpoint to a PE at the first operation to it)"));
        String info;
        try {
            info = contextInfo();
        } catch (RuntimeException e) {
            lines.add("ucx: unavailable: " + e.getMessage());
            return lines;
        }
        Map<String, List<String>> devices = resources(info);
        if (devices.isEmpty()) {
            lines.add("ucx: no transports found (check UCX_TLS / UCX_NET_DEVICES)");
        }
        for (Map.Entry<String, List<String>> e : devices.entrySet()) {
            lines.add("ucx:   " + e.getKey() + " on " + String.join(", ", e.getValue()));
        }
        String tls = Settings.system().env("UCX_TLS");
        if (tls != null) {
            lines.add("ucx: UCX_TLS=" + tls);
        }
        return lines;
    }

    /** Transport to devices, in UCX's order, from ucp_context_print_info's "resource" lines. */
    static Map<String, List<String>> resources(String contextInfo) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Matcher m = RESOURCE.matcher(contextInfo);
        while (m.find()) {
            out.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(m.group(2));
        }
        return out;
    }

    /** ucp_context_print_info of a context with the transport's features. */
    static String contextInfo() {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment params = tmp.allocate(UcpAbi.PARAMS);
            params.set(JAVA_LONG, UcpAbi.PARAMS_FIELD_MASK, UcpAbi.UCP_PARAM_FIELD_FEATURES);
            params.set(JAVA_LONG, UcpAbi.PARAMS_FEATURES, UcpAbi.UCP_FEATURE_RMA | UcpAbi.UCP_FEATURE_AMO64 | UcpAbi.UCP_FEATURE_AMO32
                    | UcpAbi.UCP_FEATURE_WAKEUP);
            MemorySegment out = tmp.allocate(ADDRESS);
            byte st = Ucp.configRead(out);
            if (st != UcpAbi.UCS_OK) {
                throw new IllegalStateException("ucp_config_read failed: " + Ucp.statusString(st));
            }
            MemorySegment config = out.get(ADDRESS, 0);
            try {
                st = Ucp.init(params, config, out);
            } finally {
                Ucp.configRelease(config);
            }
            if (st != UcpAbi.UCS_OK) {
                throw new IllegalStateException("ucp_init failed: " + Ucp.statusString(st));
            }
            MemorySegment context = out.get(ADDRESS, 0);
            try {
                return Ucp.contextInfo(context);
            } finally {
                Ucp.cleanup(context);
            }
        }
    }

    public static void main(String[] args) {
        describe().forEach(System.out::println);
    }
}
