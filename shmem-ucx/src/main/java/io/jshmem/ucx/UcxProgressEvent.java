/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A busy period of the UCX progress thread (JDK Flight Recorder, category "jshmem"): from the first
 * completion it found after waking up to going back to sleep, with the number of completions.
 * Long periods mean the application spent time outside the library while messages arrived.
 */
@Name("jshmem.UcxProgress")
@Label("UCX Progress Thread")
@Category("jshmem")
@Description("The UCX progress thread's work between two sleeps: completions it processed for this PE")
@StackTrace(false)
final class UcxProgressEvent extends Event {
    /** A probe: {@code ON.isEnabled()} is a static check while nothing records the event. */
    static final UcxProgressEvent ON = new UcxProgressEvent();

    @Label("Completions")
    long completions;
}
