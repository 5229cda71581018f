package io.jshmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;

class ShmemVersionTest {
    @Test
    void versionComesFromTheBuild() {
        String expected = System.getProperty("jshmem.expectedVersion");
        assertNotNull(expected, "surefire sets jshmem.expectedVersion to ${project.version}");
        assertEquals(expected, ShmemVersion.JSHMEM_VERSION);
        assertEquals("jshmem " + expected, ShmemVersion.VENDOR_STRING);
    }
}
