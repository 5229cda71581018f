/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ShmemException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigTest {

    @Test
    void sizesAcceptSuffixes() {
        assertEquals(1048576, Config.parseSize("X", "1048576"));
        assertEquals(64L << 10, Config.parseSize("X", "64k"));
        assertEquals(512L << 20, Config.parseSize("X", "512M"));
        assertEquals(2L << 30, Config.parseSize("X", "2g"));
        assertEquals(2L << 30, Config.parseSize("X", "2GB"));
        assertEquals(3L << 20, Config.parseSize("X", " 3 m "));
    }

    @Test
    void badSizesNameTheVariable() {
        for (String bad : new String[] {"", "abc", "-5m", "0", "12q", "99999999999999999g"}) {
            ShmemException e = assertThrows(ShmemException.class, () -> Config.parseSize("SHMEM_SYMMETRIC_SIZE", bad));
            assertTrue(e.getMessage().contains("SHMEM_SYMMETRIC_SIZE"), e.getMessage());
        }
    }

    @Test
    void defaultsAndFlags() {
        Config c = Config.fromEnvironment(Map.of());
        assertEquals(Config.DEFAULT_SYMMETRIC_SIZE, c.symmetricSize());
        assertFalse(c.debug());
        assertEquals("/dev/shm", c.shmDir());
        Config d = Config.fromEnvironment(Map.of("SHMEM_DEBUG", "1", "SHMEM_INFO", "yes", "SHMEM_VERSION", "0",
                "SHMEM_SYMMETRIC_SIZE", "16m"));
        assertTrue(d.debug());
        assertTrue(d.info());
        assertFalse(d.version());
        assertEquals(16L << 20, d.symmetricSize());
    }

    @Test
    void formatsSizes() {
        assertEquals("128 MiB", Config.formatSize(128L << 20));
        assertEquals("2 GiB", Config.formatSize(2L << 30));
        assertEquals("1000 B", Config.formatSize(1000));
    }

    @Test
    void networkSettingsAreParsedHere() {
        Config.Network n = Config.fromEnvironment(Map.of()).network();
        assertEquals(Config.Network.DEFAULTS, n);
        assertEquals(60_000_000_000L, n.ucxTimeoutNanos());
        assertEquals(-1, n.ucxProgressSpinNanos());
        assertTrue(n.ucxPeerErrors());
        assertEquals("job", n.ucxListen());
        assertEquals(Config.UcxWireUp.AUTO, n.ucxWireUp(), "wire-up by UCX's release by default");
        assertEquals(Config.Pmi.AUTO, n.pmi());
        assertEquals(null, n.pmi2Library());
        Config.Network m = Config.fromEnvironment(Map.of("JSHMEM_UCX_TIMEOUT", "7", "JSHMEM_UCX_PROGRESS_SPIN_US", "0",
                "JSHMEM_UCX_ERR_MODE", "NONE", "JSHMEM_UCX_LISTEN", "eth0,ib0", "JSHMEM_PMI", "pmi2",
                "JSHMEM_PMIX_LIBRARY", " /opt/pmix/lib/libpmix.so.2 ", "JSHMEM_UCX_WIREUP", " Eager")).network();
        assertEquals(7_000_000_000L, m.ucxTimeoutNanos());
        assertEquals(0, m.ucxProgressSpinNanos());
        assertFalse(m.ucxPeerErrors());
        assertEquals("eth0,ib0", m.ucxListen());
        assertEquals(Config.UcxWireUp.EAGER, m.ucxWireUp());
        assertEquals(Config.Pmi.PMI2, m.pmi());
        assertEquals("/opt/pmix/lib/libpmix.so.2", m.pmixLibrary());
        for (Map<String, String> bad : java.util.List.of(Map.of("JSHMEM_UCX_TIMEOUT", "0"), Map.of("JSHMEM_UCX_ERR_MODE", "loud"),
                Map.of("JSHMEM_UCX_LISTEN", "eth0;rm -rf"), Map.of("JSHMEM_PMI", "pmi3"), Map.of("JSHMEM_UCX_PROGRESS_SPIN_US", "-2"),
                Map.of("JSHMEM_UCX_WIREUP", "sometimes"))) {
            ShmemException e = assertThrows(ShmemException.class, () -> Config.fromEnvironment(bad));
            assertTrue(e.getMessage().startsWith(bad.keySet().iterator().next() + "="), e.getMessage());
        }
    }
}
