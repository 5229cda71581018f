package io.jshmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShmemVersionTest {
    @Test
    void versionComesFromTheBuild() {
        String expected = System.getProperty("jshmem.expectedVersion");
        assertNotNull(expected, "surefire sets jshmem.expectedVersion to ${project.version}");
        assertEquals(expected, ShmemVersion.JSHMEM_VERSION);
        assertEquals("jshmem " + expected, ShmemVersion.VENDOR_STRING);
    }

    @Test
    void twoVersionsOnTheClassPathAreNamed(@TempDir Path tmp) throws Exception {
        try (URLClassLoader two = loader(tmp, "0.0.1", "0.1.0")) {
            ShmemException e = assertThrows(ShmemException.class, () -> ShmemVersion.checkSingleVersion(two));
            assertTrue(e.getMessage().contains("2 versions of jshmem: jshmem 0.0.1 in " + tmp.resolve("cp0")
                    + ", jshmem 0.1.0 in " + tmp.resolve("cp1")), e.getMessage());
        }
    }

    @Test
    void oneVersionTwiceIsFine(@TempDir Path tmp) throws Exception {
        try (URLClassLoader same = loader(tmp, "0.1.0", "0.1.0")) {
            ShmemVersion.checkSingleVersion(same);
            assertEquals(Map.of(tmp.resolve("cp0").toString(), "0.1.0", tmp.resolve("cp1").toString(), "0.1.0"),
                    ShmemVersion.copies(same));
        }
    }

    /** A class loader over directories cp0, cp1, ... each holding the version resource with one version. */
    private static URLClassLoader loader(Path tmp, String... versions) throws Exception {
        URL[] urls = new URL[versions.length];
        for (int i = 0; i < versions.length; i++) {
            Path dir = tmp.resolve("cp" + i);
            Files.createDirectories(dir.resolve("io/jshmem"));
            Files.writeString(dir.resolve("io/jshmem/" + ShmemVersion.RESOURCE), "version=" + versions[i] + "\n");
            urls[i] = dir.toUri().toURL();
        }
        return new URLClassLoader(urls, null);
    }
}
