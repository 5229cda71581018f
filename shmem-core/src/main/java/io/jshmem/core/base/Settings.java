/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The one reader of the environment and of system properties in jshmem (a test in shmem-core fails
 * on any other {@code System.getenv} or property read but the JDK's own {@code java.*}, {@code os.*},
 * {@code user.*} properties). A snapshot: {@link #system()} for this process, {@link #of(Map)} for a
 * test's or a launcher's map. The {@link Setting}s are read through {@link #raw(Setting)} and
 * {@link #source(Setting)}, and parsed by {@link Config}; variables that are not jshmem's settings
 * (SLURM_*, PMI_*, OMPI_*, UCX_*, HOME, ...) through {@link #env(String)} and {@link #environment()}.
 *
 * <p>No ShmemException here (it is the API module's): {@link Log} reads its levels through this class.
 */
public final class Settings {
    /** Where a setting's value came from, as {@code bin/shmem-info --parsable} says it. */
    public enum Source {
        DEFAULT, ENVIRONMENT, PROPERTY;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Map<String, String> env;
    private final UnaryOperator<String> properties;

    private Settings(Map<String, String> env, UnaryOperator<String> properties) {
        this.env = env;
        this.properties = properties;
    }

    /** This process's environment and (live) system properties. */
    public static Settings system() {
        return new Settings(System.getenv(), System::getProperty);
    }

    /** {@code env} as the environment, no system properties (tests, a launcher's map of a PE's variables). */
    public static Settings of(Map<String, String> env) {
        return new Settings(env, k -> null);
    }

    /** {@code env} as the environment and {@code properties} as the system properties (tests). */
    public static Settings of(Map<String, String> env, Map<String, String> properties) {
        return new Settings(env, properties::get);
    }

    /** This process's environment: {@code system().environment()}. */
    public static Map<String, String> systemEnvironment() {
        return System.getenv();
    }

    /** The whole environment (for code handed a map, e.g. the PMI bootstraps' SLURM_* and PMI_* variables). */
    public Map<String, String> environment() {
        return env;
    }

    /** An environment variable that is not one of the settings (HOME, XDG_*, SLURM_*, UCX_*...), or null. */
    public String env(String variable) {
        return env.get(variable);
    }

    /** A system property, or null. */
    public String property(String name) {
        return properties.apply(name);
    }

    /** The setting's value as written (not trimmed), or null when unset. */
    public String raw(Setting s) {
        return s.fromProperty() ? properties.apply(s.key()) : env.get(s.key());
    }

    /** Where the value in effect comes from: blank counts as unset, as the parsers treat it. */
    public Source source(Setting s) {
        String v = raw(s);
        if (v == null || v.isBlank()) {
            return Source.DEFAULT;
        }
        return s.fromProperty() ? Source.PROPERTY : Source.ENVIRONMENT;
    }

    /** The value as written, trimmed, or the table's default (null: none) when unset or blank. */
    public String text(Setting s) {
        String v = raw(s);
        return v == null || v.isBlank() ? s.defaultValue() : v.strip();
    }

    /** The value as written, trimmed, or {@code otherwise} when unset or blank. */
    public String text(Setting s, String otherwise) {
        String v = raw(s);
        return v == null || v.isBlank() ? otherwise : v.strip();
    }

    /** A flag: its default when unset or blank; else off when 0, false, no or off, and on for anything else. */
    public boolean on(Setting s) {
        String v = raw(s);
        return flag(v == null || v.isBlank() ? s.defaultValue() : v);
    }

    /** A value is on unless null, empty, 0, false, no or off. */
    public static boolean flag(String v) {
        if (v == null) {
            return false;
        }
        return switch (v.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "", "0", "false", "no", "off" -> false;
            default -> true;
        };
    }
}
