package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.SymByteArray;
import io.jshmem.SymType;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Jobs for ShmCapacityTest, run with JSHMEM_SHM_DIR on a small tmpfs:
 * <ul>
 * <li>{@code hello}: init, a barrier, {@code PAST <pe>}, close;
 * <li>{@code fill-after-init DIR}: after init, PE 0 fills DIR with a ballast file until it is full,
 *     then writes every byte of a heap-sized array on PE 0; {@code FILLED <pe>} if that worked. With
 *     JSHMEM_SHM_PREALLOCATE the heap's pages were allocated at init and the writes cannot fault.
 * </ul>
 */
public final class ShmCapacityScenarios {
    private ShmCapacityScenarios() {
    }

    public static void main(String[] args) throws IOException {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            switch (args[0]) {
                case "hello" -> {
                    shmem.barrierAll();
                    Out.line("PAST " + me);
                }
                case "fill-after-init" -> {
                    long bytes = Long.parseLong(args[2]);
                    SymByteArray heap = shmem.malloc(SymType.BYTE, bytes);
                    shmem.barrierAll();
                    if (me == 0) {
                        Path ballast = Path.of(args[1], "ballast");
                        fill(ballast);
                        try {
                            for (long i = 0; i < bytes; i += 4096) {
                                heap.set(i, (byte) 1);
                            }
                        } finally {
                            Files.deleteIfExists(ballast);
                        }
                        Out.line("FILLED " + me);
                    }
                    shmem.barrierAll();
                }
                default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
            }
        }
    }

    /** Writes zeros to {@code file} until its file system is full. */
    private static void fill(Path file) throws IOException {
        byte[] chunk = new byte[1 << 16];
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            while (true) {
                f.write(chunk);
            }
        } catch (IOException e) {
            // full
        }
    }
}
