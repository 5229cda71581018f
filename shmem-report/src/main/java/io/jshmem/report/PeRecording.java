/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What one PE's recording holds for the report.
 *
 * @param pe    the PE's number
 * @param file  the recording
 * @param node  the host the PE ran on (its name, else "node N" from JSHMEM_NODE), or "?" when the recording does not say
 * @param env   the PE's jshmem and SHMEM settings from its environment (JSHMEM_*, SHMEM_*, without secrets)
 * @param ops   its jshmem events by start time; times relative to the job's first event once {@link Recordings} is done
 * @param firstNanos epoch nanoseconds of its first jshmem event (or its recording's start without one)
 */
record PeRecording(int pe, Path file, String node, Map<String, String> env, List<Op> ops, long firstNanos) {
}
