/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/*
 * Start-up probe: one line per PE. oshmem.sh times whole `oshrun ./hello`
 * runs (launch + shmem_init + finalize) and checks the line count.
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    printf("hello from PE %d of %d\n", shmem_my_pe(), shmem_n_pes());
    fflush(stdout);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
