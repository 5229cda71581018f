/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.spawn.jobs;

import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.SubprocessRefusedException;
import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * A child JVM that tries to initialize jshmem, started by a PE (see {@link SpawnJobs}). With the
 * argument {@code wait} it first prints {@code READY} and waits for a line on stdin. It prints
 * {@code CHILD REFUSED clause=<n> owner=<pid>} and {@code CHILD MESSAGE <text>} (exit 3) when init
 * refuses, {@code CHILD INITIALIZED ...} (exit 0) when it succeeds, {@code CHILD FAILED ...} (exit 4)
 * for any other error.
 */
public final class ChildInit {
    private ChildInit() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("wait")) {
            System.out.println("READY");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in)).readLine();
        }
        try {
            Shmem s = Shmem.init();
            System.out.println("CHILD INITIALIZED pe=" + s.myPe() + " npes=" + s.nPes());
            s.close();
            System.exit(0);
        } catch (SubprocessRefusedException e) {
            System.out.println("CHILD REFUSED clause=" + e.clause() + " owner=" + e.ownerPid());
            System.out.println("CHILD MESSAGE " + e.getMessage());
            System.exit(3);
        } catch (ShmemException e) {
            System.out.println("CHILD FAILED " + e);
            System.exit(4);
        }
    }
}
