package io.jshmem.core.launcher;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * {@code oshrun --jfr --report}: runs shmem-report on the job's recordings once the job has ended
 * (also after a failed job: the PEs that finished wrote theirs, and the report names what is
 * missing). shmem-report is a module of its own that shmem-core does not depend on; it is on
 * oshrun's class path in the source tree and the binary distribution, and looked up by name.
 * The job's exit status stays the job's: a report that fails says why on stderr.
 */
final class JobReport {
    static final String MAIN = "io.jshmem.report.ShmemReport";

    private JobReport() {
    }

    static void write(String jfrDir, String jobId) {
        Method run;
        try {
            run = Class.forName(MAIN).getMethod("run", String[].class, java.io.PrintStream.class, java.io.PrintStream.class);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            System.err.println("oshrun: --report needs shmem-report (" + MAIN + "), which is not on oshrun's class path:"
                    + " build the shmem-report module, or use the binary distribution");
            return;
        }
        try {
            run.invoke(null, new String[] {"--job", jobId, jfrDir}, System.out, System.err);
        } catch (IllegalAccessException e) {
            System.err.println("oshrun: --report: cannot run shmem-report: " + e);
        } catch (InvocationTargetException e) {
            System.err.println("oshrun: --report: shmem-report failed: " + e.getCause());
        }
    }
}
