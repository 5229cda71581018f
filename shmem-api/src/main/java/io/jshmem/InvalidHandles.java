/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Optional;
import java.util.Set;

/**
 * {@link ShmemTeam#INVALID} (SHMEM_TEAM_INVALID) and {@link ShmemContext#INVALID}
 * (SHMEM_CTX_INVALID): handles that reference no team or context, accepted by the routines for
 * which OpenSHMEM 1.6 defines what an invalid handle does. Everything else is undefined in the
 * specification and throws {@link ShmemException} here.
 */
final class InvalidHandles {
    private InvalidHandles() {
    }

    /** Context routines that perform no operation on SHMEM_CTX_INVALID. */
    private static final Set<String> CONTEXT_NO_OPS = Set.of("fence", "quiet", "close", "sessionStart", "sessionStop");

    /**
     * Creates {@link ShmemTeam#INVALID} (once, from that interface's initializer). The two handles
     * refer to each other only when called, so neither interface's initialization needs the other.
     */
    static ShmemTeam newTeam() {
        return (ShmemTeam) Proxy.newProxyInstance(InvalidHandles.class.getClassLoader(), new Class<?>[] {ShmemTeam.class},
                handler("SHMEM_TEAM_INVALID", InvalidHandles::team));
    }

    /** Creates {@link ShmemContext#INVALID} (once, from that interface's initializer). */
    static ShmemContext newContext() {
        return (ShmemContext) Proxy.newProxyInstance(InvalidHandles.class.getClassLoader(),
                new Class<?>[] {ShmemContext.class}, handler("SHMEM_CTX_INVALID", InvalidHandles::context));
    }

    private interface Body {
        Object call(Method m, Object[] args);
    }

    private static InvocationHandler handler(String name, Body body) {
        return (proxy, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return switch (m.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> name;
                };
            }
            return body.call(m, args);
        };
    }

    /** shmem_team_* on SHMEM_TEAM_INVALID, as OpenSHMEM 1.6 defines them. */
    private static Object team(Method m, Object[] args) {
        return switch (m.getName()) {
            case "myPe", "nPes", "translatePe" -> -1;                 // shmem_team_my_pe, _n_pes, _translate_pe
            case "getConfig", "splitStrided", "ptr" -> Optional.empty(); // get_config: nonzero; split: nonzero; team_ptr: NULL
            case "split2d" -> new TeamPair(ShmemTeam.INVALID, ShmemTeam.INVALID);               // both axes SHMEM_TEAM_INVALID, nonzero
            case "createCtx" -> ShmemContext.INVALID;                              // ctx = SHMEM_CTX_INVALID, nonzero
            case "close" -> null;                                     // team_destroy: no operation
            default -> throw undefined("SHMEM_TEAM_INVALID", m);
        };
    }

    /** shmem_ctx_* on SHMEM_CTX_INVALID, as OpenSHMEM 1.6 defines them. */
    private static Object context(Method m, Object[] args) {
        if (CONTEXT_NO_OPS.contains(m.getName())) {
            return null;
        }
        return switch (m.getName()) {
            case "team" -> ShmemTeam.INVALID;         // shmem_ctx_get_team: team = SHMEM_TEAM_INVALID, nonzero
            case "options" -> 0L;
            default -> throw undefined("SHMEM_CTX_INVALID", m);
        };
    }

    private static ShmemException undefined(String handle, Method m) {
        return new ShmemException(m.getName() + " on " + handle + ": OpenSHMEM leaves this undefined; "
                + (handle.contains("TEAM") ? "split or create a valid team first" : "create a valid context first"));
    }
}
