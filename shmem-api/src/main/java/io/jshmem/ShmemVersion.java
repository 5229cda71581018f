package io.jshmem;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Version constants of this library and of the OpenSHMEM specification it implements. */
public final class ShmemVersion {
    /**
     * jshmem's own version, as built (e.g. {@code 0.1.0}, or {@code 0.1.0-SNAPSHOT} for a development
     * build). Read at run time from the library, so it is the version of the jshmem on the class path,
     * not the one a program was compiled against.
     */
    public static final String JSHMEM_VERSION = readVersion();
    /** OpenSHMEM specification major version implemented (SHMEM_MAJOR_VERSION). */
    public static final int SPEC_MAJOR = 1;
    /** OpenSHMEM specification minor version implemented (SHMEM_MINOR_VERSION). */
    public static final int SPEC_MINOR = 6;
    /**
     * SHMEM_MAX_NAME_LEN: the most characters {@link #VENDOR_STRING} (and {@code infoGetName()}) can
     * have, counting C's terminating null (so a Java string of at most {@code MAX_NAME_LEN - 1} chars).
     */
    public static final int MAX_NAME_LEN = 256;
    /** SHMEM_VENDOR_STRING (at most {@link #MAX_NAME_LEN} - 1 characters). */
    public static final String VENDOR_STRING = "jshmem " + JSHMEM_VERSION;

    /** Resource written by the build: {@code version=<project version>}. */
    static final String RESOURCE = "jshmem-version.properties";
    /** What {@link #JSHMEM_VERSION} is when neither the build's resource nor a jar manifest says. */
    static final String UNKNOWN = "unknown";

    private ShmemVersion() {
    }

    /**
     * The version written into {@value #RESOURCE} by the build (present in the jar and in
     * {@code target/classes}); else the {@code Implementation-Version} of the jar's manifest; else
     * {@value #UNKNOWN}.
     */
    private static String readVersion() {
        try (InputStream in = ShmemVersion.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version", "").strip();
                if (!v.isEmpty() && !v.contains("${")) {
                    return v;
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // fall through to the manifest
        }
        String v = ShmemVersion.class.getPackage().getImplementationVersion();
        return v == null || v.isBlank() ? UNKNOWN : v.strip();
    }
}
