package io.jshmem;

/**
 * Thrown for every misuse jshmem detects (PE out of range, out-of-bounds index, a freed or foreign
 * symmetric object, use after finalize, heap exhausted, ...) and for job-level failures (another
 * PE died, the job is being aborted). The message always names the PE that raised it.
 */
public class ShmemException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ShmemException(String message) {
        super(message);
    }

    public ShmemException(String message, Throwable cause) {
        super(message, cause);
    }
}
