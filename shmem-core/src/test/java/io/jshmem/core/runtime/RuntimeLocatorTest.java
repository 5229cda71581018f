/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jshmem.spi.ShmemProvider;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * On the class path, shmem-api finds the runtime by the class name the service file names, without
 * ServiceLoader (io.jshmem.RuntimeLocator, package-private: reached reflectively, as tests run on the
 * class path).
 */
class RuntimeLocatorTest {
    @Test
    void theProviderFoundByNameIsTheOneServiceLoaderFinds() throws ReflectiveOperationException {
        ShmemProvider viaServiceLoader = ServiceLoader.load(ShmemProvider.class).findFirst().orElseThrow();
        Class<?> locator = Class.forName("io.jshmem.RuntimeLocator");
        Field name = locator.getDeclaredField("RUNTIME_PROVIDER");
        name.setAccessible(true);
        assertEquals(ShmemProviderImpl.class.getName(), name.get(null));
        assertEquals(ShmemProviderImpl.class, viaServiceLoader.getClass());
        Method get = locator.getDeclaredMethod("get");
        get.setAccessible(true);
        assertEquals(ShmemProviderImpl.class, get.invoke(null).getClass());
    }
}
