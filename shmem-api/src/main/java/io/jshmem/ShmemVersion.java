package io.jshmem;

/** Version constants of this library and of the OpenSHMEM specification it implements. */
public final class ShmemVersion {
    /** jshmem's own version. */
    public static final String JSHMEM_VERSION = "0.1.0";
    /** OpenSHMEM specification major version implemented (SHMEM_MAJOR_VERSION). */
    public static final int SPEC_MAJOR = 1;
    /** OpenSHMEM specification minor version implemented (SHMEM_MINOR_VERSION). */
    public static final int SPEC_MINOR = 6;
    /** SHMEM_VENDOR_STRING. */
    public static final String VENDOR_STRING = "jshmem " + JSHMEM_VERSION;

    private ShmemVersion() {
    }
}
