/**
 * Service-provider interface: how {@link io.jshmem.Shmem#init()} finds a jshmem runtime
 * ({@link java.util.ServiceLoader} of {@link io.jshmem.spi.ShmemProvider}). Not for applications.
 */
package io.jshmem.spi;
