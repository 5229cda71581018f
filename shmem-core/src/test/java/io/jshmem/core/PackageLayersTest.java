/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * shmem-core's packages are its layers (ARCHITECTURE.md, "Packages"): a package uses the ones below
 * it, never one above, so the packages' dependency graph has no cycle. The graph is read from the
 * main sources: an edge for every {@code io.jshmem...} package a file names in code (its imports and
 * fully qualified references; comments and strings do not count, so a Javadoc link to a package
 * above is fine). The cycles that remain until the issue named removes them are the edges below.
 */
class PackageLayersTest {
    /**
     * Edges that still close a cycle, each with the issue that removes it. Keep it short: an entry
     * that no longer exists fails the test too, so that it is taken off when its issue lands.
     */
    private static final Map<String, String> ALLOWED_BACK_EDGES = Map.of();

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    /** A qualified name in code: the package part, then a class name (capitalized). */
    private static final Pattern QUALIFIED = Pattern.compile("\\bio\\.jshmem(?:\\.[a-z]\\w*)+(?=\\.[A-Z])");

    @Test
    void packagesHaveNoCyclesButTheListedOnes() throws IOException {
        Map<String, Map<String, Set<String>>> graph = graph(sources());
        assertTrue(graph.keySet().containsAll(List.of("io.jshmem.core.base", "io.jshmem.core.comm",
                "io.jshmem.core.runtime")), "the sources were not read: " + graph.keySet());

        List<String> problems = new ArrayList<>();
        for (String edge : ALLOWED_BACK_EDGES.keySet()) {
            String[] e = edge.split(" -> ");
            if (!graph.getOrDefault(e[0], Map.of()).containsKey(e[1])) {
                problems.add("allowed edge " + edge + " (" + ALLOWED_BACK_EDGES.get(edge)
                        + ") is gone: take it off ALLOWED_BACK_EDGES");
            }
        }
        Map<String, Map<String, Set<String>>> rest = new TreeMap<>();
        graph.forEach((from, to) -> to.forEach((target, files) -> {
            if (!ALLOWED_BACK_EDGES.containsKey(from + " -> " + target)) {
                rest.computeIfAbsent(from, k -> new TreeMap<>()).put(target, files);
            }
        }));
        List<String> cycle = findCycle(rest);
        if (cycle != null) {
            StringBuilder b = new StringBuilder("package cycle: ");
            for (int i = 0; i + 1 < cycle.size(); i++) {
                b.append("\n  ").append(cycle.get(i)).append(" -> ").append(cycle.get(i + 1)).append(" (in ")
                        .append(rest.get(cycle.get(i)).get(cycle.get(i + 1))).append(')');
            }
            problems.add(b.toString());
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems) + "\nA package may use only the layers below it (ARCHITECTURE.md).");
        }
    }

    @Test
    void theRootPackageHoldsNoClass() throws IOException {
        List<String> root = new ArrayList<>();
        for (Path p : sources()) {
            if (packageOf(Files.readString(p, StandardCharsets.UTF_8)).equals("io.jshmem.core")) {
                root.add(p.getFileName().toString());
            }
        }
        assertEquals(List.of(), root, "io.jshmem.core holds no class: put each in the package of its layer");
    }

    /** findCycle on a made-up graph: it finds a cycle that is there and none where there is none. */
    @Test
    void findsACycle() {
        Map<String, Map<String, Set<String>>> g = new TreeMap<>();
        g.put("a", new TreeMap<>(Map.of("b", Set.of())));
        g.put("b", new TreeMap<>(Map.of("c", Set.of())));
        assertEquals(null, findCycle(g));
        g.put("c", new TreeMap<>(Map.of("a", Set.of())));
        assertEquals(List.of("a", "b", "c", "a"), findCycle(g));
    }

    private static List<Path> sources() throws IOException {
        Path src = GeneratedCodeTest.repositoryRoot().resolve("shmem-core/src/main/java");
        try (Stream<Path> s = Files.walk(src)) {
            return s.filter(p -> p.toString().endsWith(".java") && !p.endsWith("module-info.java")).sorted().toList();
        }
    }

    /** Package -> the packages it names -> the files (simple names) naming them. */
    private static Map<String, Map<String, Set<String>>> graph(List<Path> files) throws IOException {
        Map<String, String> text = new TreeMap<>();
        Set<String> packages = new TreeSet<>();
        for (Path p : files) {
            String t = Files.readString(p, StandardCharsets.UTF_8);
            text.put(p.toString(), t);
            packages.add(packageOf(t));
        }
        Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        for (Map.Entry<String, String> f : text.entrySet()) {
            String from = packageOf(f.getValue());
            graph.computeIfAbsent(from, k -> new TreeMap<>());
            Matcher m = QUALIFIED.matcher(code(f.getValue()));
            while (m.find()) {
                String to = m.group();
                if (packages.contains(to) && !to.equals(from)) {
                    graph.get(from).computeIfAbsent(to, k -> new TreeSet<>())
                            .add(Path.of(f.getKey()).getFileName().toString());
                }
            }
        }
        return graph;
    }

    private static String packageOf(String source) {
        Matcher m = PACKAGE.matcher(source);
        return m.find() ? m.group(1) : "";
    }

    /** The source without comments and string contents. */
    private static String code(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ")
                .replaceAll("\"(?:\\\\.|[^\"\\\\\\n])*\"", "\"\"");
    }

    /** A cycle (its packages, the first repeated at the end), or null: a depth-first search. */
    static List<String> findCycle(Map<String, Map<String, Set<String>>> graph) {
        Map<String, Integer> state = new TreeMap<>(); // 1: on the path, 2: done
        for (String start : graph.keySet()) {
            List<String> path = new ArrayList<>();
            List<String> c = visit(graph, start, state, path);
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    private static List<String> visit(Map<String, Map<String, Set<String>>> graph, String v,
            Map<String, Integer> state, List<String> path) {
        Integer s = state.get(v);
        if (s != null) {
            if (s == 2) {
                return null;
            }
            List<String> c = new ArrayList<>(path.subList(path.indexOf(v), path.size()));
            c.add(v);
            return c;
        }
        state.put(v, 1);
        path.add(v);
        for (String w : graph.getOrDefault(v, Map.of()).keySet()) {
            List<String> c = visit(graph, w, state, path);
            if (c != null) {
                return c;
            }
        }
        path.remove(path.size() - 1);
        state.put(v, 2);
        return null;
    }
}
