/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.multinode;

import com.github.dockerjava.api.exception.NotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.utility.DockerImageName;

/**
 * Docker containers as the nodes of a job: each has its own network address, /dev/shm and hostname,
 * on a network of its own. The JDK and this repository are bind-mounted read-only at the paths they
 * have here, so oshrun's command lines are valid inside. The launch agent is {@code docker exec -i}
 * with container names as hosts; the bootstrap server listens on the network's gateway address
 * (this machine's address on that bridge).
 */
final class Cluster implements AutoCloseable {
    static final String IMAGE = "jshmem-node:1";
    static final String RDMA_IMAGE = "jshmem-node-rdma:1";
    static final Path REPO = repositoryRoot();
    static final Path JDK = Path.of(System.getProperty("java.home"));
    /** Room for the symmetric heaps of a few PEs (128 MiB each by default); tmpfs, so only a limit. */
    private static final long SHM_BYTES = 1L << 30;

    private final Network network;
    private final List<GenericContainer<?>> nodes = new ArrayList<>();
    private final String prefix = "jshmem-mn-" + UUID.randomUUID().toString().substring(0, 8) + "-";

    private Cluster(Network network) {
        this.network = network;
    }

    /** Skips the calling test (printing why) unless Docker answers and {@code image} is built. */
    static void assumeDocker(String image) {
        Optional<String> why = unavailable(image);
        why.ifPresent(reason -> System.out.println("[multinode] SKIPPED: " + reason));
        Assumptions.assumeTrue(why.isEmpty(), () -> why.orElse(""));
    }

    /** Why jobs on containers of {@code image} cannot run here, if they cannot. */
    static Optional<String> unavailable(String image) {
        boolean docker;
        try {
            docker = DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            docker = false;
        }
        if (!docker) {
            return Optional.of("no Docker daemon is reachable (run multinode/setup-docker.sh as root to install"
                    + " and start one and build the images)");
        }
        // The launch agent is the docker command: it must reach the same daemon.
        Docker version = docker("version", "--format", "{{.Server.Version}}");
        if (version.status() != 0) {
            return Optional.of("the docker command cannot reach the Docker daemon: " + version.err().strip());
        }
        try {
            DockerClientFactory.instance().client().inspectImageCmd(image).exec();
        } catch (NotFoundException e) {
            return Optional.of("the image " + image + " is not built (run multinode/build-image.sh)");
        }
        if (!Files.isExecutable(REPO.resolve("bin/oshrun"))
                || !Files.isDirectory(REPO.resolve("shmem-core/target/classes"))) {
            return Optional.of("jshmem is not built in " + REPO);
        }
        return Optional.empty();
    }

    /** Skips unless shmem-ucx is built and provides the transport (PEs on different nodes need it). */
    static void assumeUcxTransport() {
        Path service = REPO.resolve("shmem-ucx/target/classes/META-INF/services/io.jshmem.core.transport.TransportProvider");
        String why = null;
        try {
            if (!Files.exists(service) || Files.readString(service, StandardCharsets.UTF_8).isBlank()) {
                why = "shmem-ucx is not built or does not provide the transport yet (" + service + ")";
            }
        } catch (IOException e) {
            why = "cannot read " + service + ": " + e.getMessage();
        }
        if (why != null) {
            System.out.println("[multinode] SKIPPED: " + why);
        }
        Assumptions.assumeTrue(why == null, why);
    }

    /** Starts {@code count} nodes of {@code image} on a new network, with hostnames node-a, node-b, ... */
    static Cluster start(String image, int count) {
        return start(image, count, (i, c) -> {
        });
    }

    /** As {@link #start(String, int)}, {@code customize} adjusting node i's container before it starts. */
    static Cluster start(String image, int count, BiConsumer<Integer, GenericContainer<?>> customize) {
        Cluster cluster = new Cluster(Network.newNetwork());
        try {
            for (int i = 0; i < count; i++) {
                String name = cluster.prefix + (char) ('a' + i);
                String hostname = "node-" + (char) ('a' + i);
                GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(image))
                        .withNetwork(cluster.network)
                        .withNetworkAliases(hostname)
                        .withCreateContainerCmdModifier(cmd -> cmd.withName(name).withHostName(hostname))
                        .withFileSystemBind(JDK.toString(), JDK.toString(), BindMode.READ_ONLY)
                        .withFileSystemBind(REPO.toString(), REPO.toString(), BindMode.READ_ONLY)
                        .withSharedMemorySize(SHM_BYTES)
                        .withCommand("sleep", "infinity")
                        .withStartupTimeout(Duration.ofSeconds(60));
                customize.accept(i, c);
                cluster.nodes.add(c);
            }
            cluster.nodes.parallelStream().forEach(GenericContainer::start);
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** The container names: the hosts of the job. */
    String host(int i) {
        return nodes.get(i).getContainerName().replaceFirst("^/", "");
    }

    String hostname(int i) {
        return "node-" + (char) ('a' + i);
    }

    GenericContainer<?> node(int i) {
        return nodes.get(i);
    }

    String networkId() {
        return network.getId();
    }

    /** This machine's address on the cluster's bridge: reachable from every node. */
    String gateway() {
        com.github.dockerjava.api.model.Network n = DockerClientFactory.instance().client().inspectNetworkCmd()
                .withNetworkId(network.getId()).exec();
        return n.getIpam().getConfig().get(0).getGateway();
    }

    /** {@code --host a:k,b:k} for all nodes. */
    String hostList(int slotsEach) {
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            hosts.add(host(i) + ":" + slotsEach);
        }
        return String.join(",", hosts);
    }

    /** The java processes running in node {@code i} ({@code pid command} lines). */
    List<String> javaProcesses(int i) {
        String ps = docker("exec", host(i), "ps", "-eo", "pid=,comm=").out();
        return ps.lines().map(String::strip).filter(l -> l.endsWith(" java")).toList();
    }

    /** Runs the docker CLI; the result is returned whatever the status. */
    static Docker docker(String... args) {
        List<String> command = new ArrayList<>();
        command.add("docker");
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
            p.getOutputStream().close();
            java.util.concurrent.CompletableFuture<byte[]> errBytes = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            return p.getErrorStream().readAllBytes();
                        } catch (IOException e) {
                            return new byte[0];
                        }
                    }, Thread::startVirtualThread);
            byte[] out = p.getInputStream().readAllBytes();
            byte[] err = errBytes.join();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("docker " + String.join(" ", args) + " hung");
            }
            return new Docker(p.exitValue(), new String(out, StandardCharsets.UTF_8),
                    new String(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Docker(127, "", "cannot run docker: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    record Docker(int status, String out, String err) {
    }

    @Override
    public void close() {
        nodes.parallelStream().forEach(c -> {
            try {
                c.stop();
            } catch (RuntimeException e) {
                System.out.println("[multinode] could not remove container " + c.getContainerName() + ": " + e);
            }
        });
        try {
            network.close();
        } catch (RuntimeException e) {
            System.out.println("[multinode] could not remove network " + network.getId() + ": " + e);
        }
    }

    private static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("bin/oshrun")) && Files.exists(p.resolve("multinode"))) {
                return p;
            }
        }
        throw new IllegalStateException("the jshmem repository is not above " + Path.of("").toAbsolutePath());
    }
}
