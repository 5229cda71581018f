/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-made PMIx and PMI-2 layouts ({@link PmixLayout}, {@link Pmi2Bootstrap}) against the C
 * headers: compiles a small printer with the installed headers (libpmix-dev, libpmi2-0-dev). Skips,
 * saying why, without a C compiler or the headers.
 */
class PmixLayoutTest {
    static final List<Path> PMIX_INCLUDES = List.of(Path.of("/usr/lib/x86_64-linux-gnu/pmix2/include"),
            Path.of("/usr/lib/aarch64-linux-gnu/pmix2/include"), Path.of("/usr/include/pmix"), Path.of("/usr/include"));
    static final Path PMI2_HEADER = Path.of("/usr/include/slurm/pmi2.h");

    static final String PMIX_PRINTER = """
            #include <stdio.h>
            #include <stddef.h>
            #include <pmix.h>
            #define P(name, v) printf("%s=%lld\\n", name, (long long)(v))
            int main(void) {
              P("PROC_SIZE", sizeof(pmix_proc_t)); P("PROC_ALIGN", _Alignof(pmix_proc_t));
              P("PROC_NSPACE", offsetof(pmix_proc_t, nspace)); P("PROC_RANK", offsetof(pmix_proc_t, rank));
              P("MAX_NSLEN", PMIX_MAX_NSLEN);
              P("VALUE_SIZE", sizeof(pmix_value_t)); P("VALUE_ALIGN", _Alignof(pmix_value_t));
              P("VALUE_TYPE", offsetof(pmix_value_t, type)); P("VALUE_DATA", offsetof(pmix_value_t, data));
              P("VALUE_BO_BYTES", offsetof(pmix_value_t, data.bo.bytes)); P("VALUE_BO_SIZE", offsetof(pmix_value_t, data.bo.size));
              P("INFO_SIZE", sizeof(pmix_info_t)); P("INFO_ALIGN", _Alignof(pmix_info_t));
              P("sizeof(pmix_data_type_t)", sizeof(pmix_data_type_t)); P("sizeof(pmix_scope_t)", sizeof(pmix_scope_t));
              P("sizeof(pmix_rank_t)", sizeof(pmix_rank_t)); P("sizeof(pmix_status_t)", sizeof(pmix_status_t));
              P("BOOL", PMIX_BOOL); P("BYTE", PMIX_BYTE); P("STRING", PMIX_STRING); P("SIZE", PMIX_SIZE); P("PID", PMIX_PID);
              P("INT", PMIX_INT); P("INT8", PMIX_INT8); P("INT16", PMIX_INT16); P("INT32", PMIX_INT32); P("INT64", PMIX_INT64);
              P("UINT", PMIX_UINT); P("UINT8", PMIX_UINT8); P("UINT16", PMIX_UINT16); P("UINT32", PMIX_UINT32);
              P("UINT64", PMIX_UINT64); P("BYTE_OBJECT", PMIX_BYTE_OBJECT); P("PROC_RANK_TYPE", PMIX_PROC_RANK);
              P("GLOBAL", PMIX_GLOBAL); P("SUCCESS", PMIX_SUCCESS); P("ERR_NOT_FOUND", PMIX_ERR_NOT_FOUND);
              P("RANK_WILDCARD", (int) PMIX_RANK_WILDCARD);
              printf("JOB_SIZE=%s\\nLOCAL_RANK=%s\\nLOCAL_SIZE=%s\\nLOCAL_PEERS=%s\\nNODEID=%s\\nHOSTNAME=%s\\nCOLLECT_DATA=%s\\n",
                     PMIX_JOB_SIZE, PMIX_LOCAL_RANK, PMIX_LOCAL_SIZE, PMIX_LOCAL_PEERS, PMIX_NODEID, PMIX_HOSTNAME, PMIX_COLLECT_DATA);
              return 0;
            }
            """;

    static final String PMI2_PRINTER = """
            #include <stdio.h>
            #include <slurm/pmi2.h>
            int main(void) {
              printf("MAX_KEYLEN=%d\\nMAX_VALLEN=%d\\nMAX_ATTRVALUE=%d\\nSUCCESS=%d\\n",
                     PMI2_MAX_KEYLEN, PMI2_MAX_VALLEN, PMI2_MAX_ATTRVALUE, PMI2_SUCCESS);
              return 0;
            }
            """;

    @TempDir
    Path dir;

    @Test
    void pmixLayoutMatchesTheHeaders() throws Exception {
        Path include = PMIX_INCLUDES.stream().filter(p -> Files.exists(p.resolve("pmix.h"))).findFirst().orElse(null);
        assumeTrue(include != null, "no pmix.h (apt-get install libpmix-dev)");
        Map<String, String> c = compileAndRun(PMIX_PRINTER, "-I" + include);
        Map<String, Object> java = new HashMap<>();
        java.put("PROC_SIZE", PmixLayout.PROC_SIZE);
        java.put("PROC_ALIGN", PmixLayout.PROC_ALIGN);
        java.put("PROC_NSPACE", PmixLayout.PROC_NSPACE);
        java.put("PROC_RANK", PmixLayout.PROC_RANK);
        java.put("MAX_NSLEN", PmixLayout.MAX_NSLEN);
        java.put("VALUE_SIZE", PmixLayout.VALUE_SIZE);
        java.put("VALUE_ALIGN", PmixLayout.VALUE_ALIGN);
        java.put("VALUE_TYPE", PmixLayout.VALUE_TYPE);
        java.put("VALUE_DATA", PmixLayout.VALUE_DATA);
        java.put("VALUE_BO_BYTES", PmixLayout.VALUE_BO_BYTES);
        java.put("VALUE_BO_SIZE", PmixLayout.VALUE_BO_SIZE);
        java.put("INFO_SIZE", PmixLayout.INFO_SIZE);
        java.put("INFO_ALIGN", PmixLayout.INFO_ALIGN);
        java.put("sizeof(pmix_data_type_t)", 2);  // JAVA_SHORT
        java.put("sizeof(pmix_scope_t)", 1);      // JAVA_BYTE
        java.put("sizeof(pmix_rank_t)", 4);       // JAVA_INT
        java.put("sizeof(pmix_status_t)", 4);     // JAVA_INT
        java.put("BOOL", PmixLayout.BOOL);
        java.put("BYTE", PmixLayout.BYTE);
        java.put("STRING", PmixLayout.STRING);
        java.put("SIZE", PmixLayout.SIZE);
        java.put("PID", PmixLayout.PID);
        java.put("INT", PmixLayout.INT);
        java.put("INT8", PmixLayout.INT8);
        java.put("INT16", PmixLayout.INT16);
        java.put("INT32", PmixLayout.INT32);
        java.put("INT64", PmixLayout.INT64);
        java.put("UINT", PmixLayout.UINT);
        java.put("UINT8", PmixLayout.UINT8);
        java.put("UINT16", PmixLayout.UINT16);
        java.put("UINT32", PmixLayout.UINT32);
        java.put("UINT64", PmixLayout.UINT64);
        java.put("BYTE_OBJECT", PmixLayout.BYTE_OBJECT);
        java.put("PROC_RANK_TYPE", PmixLayout.PROC_RANK_TYPE);
        java.put("GLOBAL", PmixLayout.GLOBAL);
        java.put("SUCCESS", PmixLayout.SUCCESS);
        java.put("ERR_NOT_FOUND", PmixLayout.ERR_NOT_FOUND);
        java.put("RANK_WILDCARD", PmixLayout.RANK_WILDCARD);
        java.put("JOB_SIZE", PmixLayout.JOB_SIZE);
        java.put("LOCAL_RANK", PmixLayout.LOCAL_RANK);
        java.put("LOCAL_SIZE", PmixLayout.LOCAL_SIZE);
        java.put("LOCAL_PEERS", PmixLayout.LOCAL_PEERS);
        java.put("NODEID", PmixLayout.NODEID);
        java.put("HOSTNAME", PmixLayout.HOSTNAME);
        java.put("COLLECT_DATA", PmixLayout.COLLECT_DATA);
        assertEquals(java.keySet(), c.keySet());
        java.forEach((k, v) -> assertEquals(c.get(k), String.valueOf(v), k));
    }

    @Test
    void pmi2LimitsMatchTheHeader() throws Exception {
        assumeTrue(Files.exists(PMI2_HEADER), "no " + PMI2_HEADER + " (apt-get install libpmi2-0-dev)");
        Map<String, String> c = compileAndRun(PMI2_PRINTER);
        assertEquals(String.valueOf(Pmi2Bootstrap.MAX_KEYLEN), c.get("MAX_KEYLEN"));
        assertEquals(String.valueOf(Pmi2Bootstrap.MAX_VALLEN), c.get("MAX_VALLEN"));
        assertEquals(String.valueOf(Pmi2Bootstrap.MAX_ATTRVALUE), c.get("MAX_ATTRVALUE"));
        assertEquals(String.valueOf(Pmi2Bootstrap.SUCCESS), c.get("SUCCESS"));
    }

    private Map<String, String> compileAndRun(String source, String... flags) throws IOException, InterruptedException {
        Path cc = List.of(Path.of("/usr/bin/cc"), Path.of("/usr/bin/gcc")).stream().filter(Files::isExecutable).findFirst()
                .orElse(null);
        assumeTrue(cc != null, "no C compiler (apt-get install gcc)");
        Path src = dir.resolve("layout.c");
        Path exe = dir.resolve("layout");
        Files.writeString(src, source);
        List<String> cmd = new java.util.ArrayList<>(List.of(cc.toString()));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of(src.toString(), "-o", exe.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "cc failed:\n" + out);
        Process run = new ProcessBuilder(exe.toString()).redirectErrorStream(true).start();
        String printed = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        run.waitFor(10, TimeUnit.SECONDS);
        Map<String, String> m = new HashMap<>();
        printed.lines().forEach(l -> m.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
        return m;
    }
}
