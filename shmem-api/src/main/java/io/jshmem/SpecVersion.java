/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/**
 * The OpenSHMEM specification version, as {@code shmem_info_get_version} reports it.
 *
 * @param major the major version ({@code SHMEM_MAJOR_VERSION})
 * @param minor the minor version ({@code SHMEM_MINOR_VERSION})
 */
public record SpecVersion(int major, int minor) {
    /** {@return "major.minor", e.g. "1.6"} */
    @Override
    public String toString() {
        return major + "." + minor;
    }
}
