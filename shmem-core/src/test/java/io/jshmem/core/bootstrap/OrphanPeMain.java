/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

/**
 * A PE for {@link OrphanGuardTest}: connects with {@link TcpBootstrap#fromEnvironment}, finalizes if
 * told ({@code args[0]} = {@code finalize}), prints {@code connected}, then sleeps in its own code
 * for {@code args[1]} ms and exits 0.
 */
public final class OrphanPeMain {
    private OrphanPeMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        TcpBootstrap bootstrap = TcpBootstrap.fromEnvironment(System.getenv());
        if (args[0].equals("finalize")) {
            bootstrap.finalized();
        }
        System.out.println("connected");
        System.out.flush();
        Thread.sleep(Long.parseLong(args[1]));
        System.exit(0);
    }
}
