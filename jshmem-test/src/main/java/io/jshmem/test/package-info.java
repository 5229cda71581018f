/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Testing jshmem programs with JUnit 5: a {@link io.jshmem.test.ShmemTest} method runs as a job of N
 * PEs through the real {@code bin/oshrun}; its outcome (passed, failed naming the PE, skipped) is the
 * test's.
 */
package io.jshmem.test;
