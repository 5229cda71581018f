/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test that runs as a job of {@link #npes()} PEs through the real {@code bin/oshrun}: every PE
 * creates an instance of the test class (no-argument constructor) and calls the method, which may
 * take the PE's {@link io.jshmem.Shmem} handle as its only parameter (the PE initializes before and
 * finalizes after the call). {@code @BeforeEach}/{@code @AfterEach} methods are not run in the PEs.
 *
 * <p>The test passes when every PE returns; fails, naming the PE and showing its output, when a PE
 * throws or the job fails; is skipped when a PE's assumption fails
 * ({@link org.junit.jupiter.api.Assumptions}). Configuration (system properties of the test JVM, e.g.
 * surefire's {@code systemPropertyVariables}): {@code jshmem.home} (a jshmem installation: the
 * unpacked distribution or a built checkout; else {@code $JSHMEM_HOME}, else {@code oshrun} on the
 * PATH), {@code jshmem.test.oshrun} (the launcher itself), {@code jshmem.test.classpath} (the PEs'
 * class path; default: the test JVM's).
 *
 * <pre>{@code
 * @ShmemTest(npes = 4)
 * void ring(Shmem shmem) {
 *     SymLongArray box = shmem.calloc(SymType.LONG, 1);
 *     shmem.p(box, 0, shmem.myPe(), (shmem.myPe() + 1) % shmem.nPes());
 *     shmem.barrierAll();
 *     assertEquals((shmem.myPe() + shmem.nPes() - 1) % shmem.nPes(), box.get(0));
 * }
 * }</pre>
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@ExtendWith(ShmemJobExtension.class)
public @interface ShmemTest {
    /** {@return the number of PEs of the job} */
    int npes() default 2;

    /** {@return seconds after which oshrun ends the job (the test then fails)} */
    int timeoutSeconds() default 120;

    /** {@return environment variables for the PEs, as {@code VAR=VALUE} (oshrun's {@code -x})} */
    String[] env() default {};

    /** {@return extra JVM options for every PE (oshrun's {@code --jvm-opt})} */
    String[] jvmOptions() default {};
}
