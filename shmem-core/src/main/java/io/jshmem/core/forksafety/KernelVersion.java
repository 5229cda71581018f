/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Linux kernel release ({@code uname -r}, e.g. {@code 6.18.44-fc-v595}) reduced to major.minor. */
public record KernelVersion(int major, int minor) implements Comparable<KernelVersion> {
    /**
     * Since Linux 5.13 the kernel copies pinned (DMA) pages into the child at fork instead of making
     * them copy-on-write, and reports it to rdma-core (RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK).
     */
    public static final KernelVersion COPY_ON_FORK = new KernelVersion(5, 13);

    private static final Pattern RELEASE = Pattern.compile("^\\s*(\\d+)\\.(\\d+)");

    public static Optional<KernelVersion> parse(String release) {
        if (release == null) {
            return Optional.empty();
        }
        Matcher m = RELEASE.matcher(release);
        if (!m.find()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new KernelVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    public boolean copiesPinnedPagesAtFork() {
        return compareTo(COPY_ON_FORK) >= 0;
    }

    @Override
    public int compareTo(KernelVersion o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
