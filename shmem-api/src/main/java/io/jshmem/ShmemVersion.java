/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

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
        Map<String, String> copies = loader == ClassLoader.getSystemClassLoader() && !ShmemVersion.class.getModule().isNamed()
                ? copies(classPath(System.getProperty("java.class.path", "")))
                : copies(loader);
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
                    String v = versionIn(in);
                    if (v != null) {
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

    /** The entries of a class path string, in order (an empty one is the working directory). */
    static List<Path> classPath(String classPath) {
        List<Path> entries = new ArrayList<>();
        for (String e : classPath.split(File.pathSeparator)) {
            try {
                entries.add(Path.of(e.isEmpty() ? "." : e));
            } catch (IllegalArgumentException ex) {
                // not a path: the class loader cannot use it either
            }
        }
        return entries;
    }

    /**
     * Every copy of the build's version resource in these class path entries (directories and jars,
     * with the jars their manifests' {@code Class-Path} names, as the application class loader sees
     * them): location, version. Read directly rather than through the class loader, whose lookup asks
     * the JDK's modules first: opening their image, and the jar URL machinery, cost every PE several
     * milliseconds of its start.
     */
    static Map<String, String> copies(List<Path> classPath) {
        Map<String, String> copies = new LinkedHashMap<>();
        String name = ShmemVersion.class.getPackageName().replace('.', '/') + "/" + RESOURCE;
        Deque<Path> queue = new ArrayDeque<>(classPath);
        Set<Path> seen = new HashSet<>();
        while (!queue.isEmpty()) {
            Path entry = queue.removeFirst().toAbsolutePath().normalize();
            if (!seen.add(entry)) {
                continue;
            }
            String v = null;
            if (Files.isDirectory(entry)) {
                Path file = entry.resolve(name);
                if (Files.isRegularFile(file)) {
                    try (InputStream in = Files.newInputStream(file)) {
                        v = versionIn(in);
                    } catch (IOException | IllegalArgumentException e) {
                        // an unreadable copy says nothing
                    }
                }
            } else if (Files.isRegularFile(entry)) {
                try (JarFile jar = new JarFile(entry.toFile())) {
                    ZipEntry ze = jar.getEntry(name);
                    if (ze != null) {
                        try (InputStream in = jar.getInputStream(ze)) {
                            v = versionIn(in);
                        }
                    }
                    Manifest m = jar.getManifest();
                    String referenced = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
                    if (referenced != null) {
                        List<Path> more = new ArrayList<>();
                        for (String ref : referenced.trim().split("\\s+")) {
                            Path p = manifestEntry(entry, ref);
                            if (p != null) {
                                more.add(p);
                            }
                        }
                        // searched right after this jar, as URLClassPath does
                        for (int i = more.size() - 1; i >= 0; i--) {
                            queue.addFirst(more.get(i));
                        }
                    }
                } catch (IOException | IllegalArgumentException | SecurityException e) {
                    // not a jar, or unreadable: nothing to compare
                }
            }
            if (v != null) {
                copies.put(entry.toString(), v);
            }
        }
        return copies;
    }

    /** A manifest {@code Class-Path} entry (a relative URL) of {@code jar} as a local path, or null. */
    private static Path manifestEntry(Path jar, String ref) {
        if (ref.isEmpty()) {
            return null;
        }
        try {
            URI u = jar.toUri().resolve(new URI(ref)); // a URL, relative to the jar or absolute
            return "file".equals(u.getScheme()) ? Path.of(u) : null;
        } catch (URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return null;
        }
    }

    /** The version in a version resource's content, or null. */
    private static String versionIn(InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version", "").strip();
        return v.isEmpty() || v.contains("${") ? null : v;
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
     * {@code target/classes}), read from where this class came from (not through the class loader,
     * see {@link #copies(List)}), else through the class loader; else the {@code Implementation-Version}
     * of the jar's manifest; else {@value #UNKNOWN}.
     */
    private static String readVersion() {
        String v = null;
        try {
            CodeSource cs = ShmemVersion.class.getProtectionDomain().getCodeSource();
            URL location = cs == null ? null : cs.getLocation();
            if (location != null && "file".equals(location.getProtocol())) {
                for (String found : copies(List.of(Path.of(location.toURI()))).values()) {
                    v = found;
                }
            }
        } catch (URISyntaxException | RuntimeException e) {
            // through the class loader, then
        }
        if (v == null) {
            try (InputStream in = ShmemVersion.class.getResourceAsStream(RESOURCE)) {
                v = in == null ? null : versionIn(in);
            } catch (IOException | IllegalArgumentException e) {
                // fall through to the manifest
            }
        }
        if (v == null) {
            v = ShmemVersion.class.getPackage().getImplementationVersion();
        }
        return v == null || v.isBlank() ? UNKNOWN : v.strip();
    }
}
