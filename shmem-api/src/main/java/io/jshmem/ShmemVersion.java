package io.jshmem;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/** Version constants of this library and of the OpenSHMEM specification it implements. */
public final class ShmemVersion {
    /**
     * jshmem's own version, as built (e.g. {@code 0.1.0}, or {@code 0.1.0-SNAPSHOT} for a development
     * build). Read at run time from the library, so it is the version of the jshmem on the class path,
     * not the one a program was compiled against.
     */
    public static final String JSHMEM_VERSION = readVersion();
    /** OpenSHMEM specification major version implemented (SHMEM_MAJOR_VERSION). */
    public static final int SPEC_MAJOR = 1;
    /** OpenSHMEM specification minor version implemented (SHMEM_MINOR_VERSION). */
    public static final int SPEC_MINOR = 6;
    /**
     * SHMEM_MAX_NAME_LEN: the most characters {@link #VENDOR_STRING} (and {@code infoGetName()}) can
     * have, counting C's terminating null (so a Java string of at most {@code MAX_NAME_LEN - 1} chars).
     */
    public static final int MAX_NAME_LEN = 256;
    /** SHMEM_VENDOR_STRING (at most {@link #MAX_NAME_LEN} - 1 characters). */
    public static final String VENDOR_STRING = "jshmem " + JSHMEM_VERSION;

    /** Resource written by the build: {@code version=<project version>}. */
    static final String RESOURCE = "jshmem-version.properties";
    /** What {@link #JSHMEM_VERSION} is when neither the build's resource nor a jar manifest says. */
    static final String UNKNOWN = "unknown";

    private ShmemVersion() {
    }

    /**
     * Throws if the class path holds more than one version of jshmem (e.g. an application jar that
     * bundles an older jshmem ahead of the installation's {@code lib/}), naming each version and where
     * it is. Called when the runtime is looked up, i.e. at init.
     */
    static void checkSingleVersion(ClassLoader loader) {
        Map<String, String> copies = copies(loader);
        Set<String> versions = new LinkedHashSet<>(copies.values());
        if (versions.size() > 1) {
            List<String> where = new ArrayList<>();
            copies.forEach((location, version) -> where.add("jshmem " + version + " in " + location));
            throw new ShmemException("the class path holds " + versions.size() + " versions of jshmem: "
                    + String.join(", ", where) + ". Classes of the first win, which breaks the others;"
                    + " keep jshmem out of the application's jar (depend on shmem-api with scope provided,"
                    + " bin/oshrun supplies the runtime) or run it with the jshmem it was built for");
        }
    }

    /** Every copy of the build's version resource visible to {@code loader}: location, version. */
    static Map<String, String> copies(ClassLoader loader) {
        Map<String, String> copies = new LinkedHashMap<>();
        if (loader == null) {
            return copies;
        }
        String name = ShmemVersion.class.getPackageName().replace('.', '/') + "/" + RESOURCE;
        try {
            Enumeration<URL> urls = loader.getResources(name);
            while (urls.hasMoreElements()) {
                URL url = urls.nextElement();
                try (InputStream in = url.openStream()) {
                    Properties p = new Properties();
                    p.load(in);
                    String v = p.getProperty("version", "").strip();
                    if (!v.isEmpty() && !v.contains("${")) {
                        copies.put(location(url, name), v);
                    }
                } catch (IOException | IllegalArgumentException e) {
                    // an unreadable copy says nothing
                }
            }
        } catch (IOException e) {
            // no copies to compare
        }
        return copies;
    }

    /** The jar or directory a resource comes from. */
    private static String location(URL url, String name) {
        String s = url.toString();
        if (s.startsWith("jar:")) {
            int bang = s.indexOf("!/");
            s = s.substring(4, bang < 0 ? s.length() : bang);
        } else if (s.endsWith("/" + name)) {
            s = s.substring(0, s.length() - name.length() - 1);
        }
        if (s.startsWith("file:")) {
            try {
                return java.nio.file.Path.of(java.net.URI.create(s)).toString();
            } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
                return s.substring(5);
            }
        }
        return s;
    }

    /**
     * The version written into {@value #RESOURCE} by the build (present in the jar and in
     * {@code target/classes}); else the {@code Implementation-Version} of the jar's manifest; else
     * {@value #UNKNOWN}.
     */
    private static String readVersion() {
        try (InputStream in = ShmemVersion.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version", "").strip();
                if (!v.isEmpty() && !v.contains("${")) {
                    return v;
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // fall through to the manifest
        }
        String v = ShmemVersion.class.getPackage().getImplementationVersion();
        return v == null || v.isBlank() ? UNKNOWN : v.strip();
    }
}
