/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.examples;

import io.jshmem.Shmem;

/** Every PE says hello. {@code bin/oshrun -np 4 -cp shmem-examples/target/classes io.jshmem.examples.Hello} */
public final class Hello {
    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            System.out.println("Hello from PE " + shmem.myPe() + " of " + shmem.nPes() + " (" + shmem.infoGetName()
                    + ", OpenSHMEM " + shmem.infoGetVersion() + ")");
        }
    }
}
