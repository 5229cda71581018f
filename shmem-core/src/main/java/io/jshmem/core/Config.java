package io.jshmem.core;

import io.jshmem.ShmemException;
import java.util.Locale;
import java.util.Map;

/**
 * Settings read from the environment at init (the OpenSHMEM SHMEM_* variables plus jshmem's own).
 *
 * @param symmetricSize usable bytes of symmetric heap per PE (SHMEM_SYMMETRIC_SIZE)
 * @param debug         extra checking of collective arguments across PEs (SHMEM_DEBUG)
 * @param info          print the settings at init (SHMEM_INFO)
 * @param version       print the library version at init (SHMEM_VERSION)
 * @param shmDir        directory of the shared-memory segments (JSHMEM_SHM_DIR, default /dev/shm)
 * @param transport     SHMEM_TRANSPORT: {@code auto} (shared memory on-node, network off-node),
 *                      {@code shm} (shared memory only) or {@code ucx} (UCX for every peer but self)
 */
public record Config(long symmetricSize, boolean debug, boolean info, boolean version, String shmDir, String transport) {

    /** Default symmetric heap size per PE: 128 MiB (tmpfs pages are only used once touched). */
    public static final long DEFAULT_SYMMETRIC_SIZE = 128L << 20;

    public static Config fromEnvironment(Map<String, String> env) {
        String size = env.get("SHMEM_SYMMETRIC_SIZE");
        return new Config(
                size == null || size.isBlank() ? DEFAULT_SYMMETRIC_SIZE : parseSize("SHMEM_SYMMETRIC_SIZE", size),
                flag(env.get("SHMEM_DEBUG")),
                flag(env.get("SHMEM_INFO")),
                flag(env.get("SHMEM_VERSION")),
                env.getOrDefault("JSHMEM_SHM_DIR", "/dev/shm"),
                transport(env.get("SHMEM_TRANSPORT")));
    }

    static String transport(String v) {
        String t = v == null || v.isBlank() ? "auto" : v.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "auto", "shm", "ucx" -> t;
            default -> throw new ShmemException("SHMEM_TRANSPORT=" + v + " is not valid: use auto, shm or ucx");
        };
    }

    /** Whether on-node peers are reached through shared memory (false: through the network transport). */
    public boolean directOnNode() {
        return !transport.equals("ucx");
    }

    /** A variable is on when set to anything but empty, 0, false, no or off. */
    static boolean flag(String v) {
        if (v == null) {
            return false;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "", "0", "false", "no", "off" -> false;
            default -> true;
        };
    }

    /** Parses "1048576", "64k", "512m", "2g" (also K/M/G, kb/mb/gb, and a "t" suffix). */
    public static long parseSize(String variable, String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("b") && s.length() > 1 && !Character.isDigit(s.charAt(s.length() - 2))) {
            s = s.substring(0, s.length() - 1);
        }
        int shift = 0;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'k' -> shift = 10;
                case 'm' -> shift = 20;
                case 'g' -> shift = 30;
                case 't' -> shift = 40;
                default -> shift = 0;
            }
        }
        String digits = shift == 0 ? s : s.substring(0, s.length() - 1).trim();
        try {
            long n = Long.parseLong(digits);
            if (n <= 0 || n > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new ShmemException(variable + "=" + text + " is not a valid size: use a positive number of bytes with an optional k, m or g suffix (e.g. 512m)");
        }
    }

    /** Human-readable size: "128 MiB". */
    public static String formatSize(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}
