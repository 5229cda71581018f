/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * jshmem's API: OpenSHMEM 1.6 for Java.
 *
 * <p>{@link io.jshmem.Shmem#init()} starts the library in a processing element (PE) and returns the
 * handle whose methods are the OpenSHMEM routines; {@code close()} finalizes. Symmetric objects are
 * typed arrays ({@link io.jshmem.SymLongArray}, {@link io.jshmem.SymDoubleArray}, ...) allocated
 * collectively with a {@link io.jshmem.SymType} token; a remote location is an object, an element
 * index and a PE number. Teams ({@link io.jshmem.ShmemTeam}) carry the collectives, contexts
 * ({@link io.jshmem.ShmemContext}) separate streams of operations. Errors are
 * {@link io.jshmem.ShmemException}s naming the PE.
 *
 * <p>Programs compile against this package only and run under {@code bin/oshrun -np N}, which puts
 * the runtime on the class path.
 */
package io.jshmem;
