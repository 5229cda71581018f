package io.jshmem;

/** The OpenSHMEM specification version, as {@code shmem_info_get_version} reports it. */
public record SpecVersion(int major, int minor) {
    @Override
    public String toString() {
        return major + "." + minor;
    }
}
