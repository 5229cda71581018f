/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import io.jshmem.ShmemException;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.LaunchEnv;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.heap.SymmetricHeap;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Collective set-up of a PE's {@link UcxTransport}: UCP context (its TCP listeners restricted to
 * the job's interface), main worker, the heap registered with {@code ucp_mem_map}, this PE's worker
 * address, memory key and heap base published through the bootstrap ("ucx.addr.PE",
 * "ucx.rkey.PE", "ucx.base.PE") and a fence. Nothing is fetched and no endpoint made for a peer
 * here with JSHMEM_UCX_WIREUP=lazy (auto's choice with UCX 1.14 or later, see {@link #eager}): a channel makes the endpoint at the first operation
 * to a PE ({@link Channel#use}), fetching what that PE published then; a dead or unreachable peer
 * is reported there, naming it. JSHMEM_UCX_WIREUP=eager connects to every off-node PE here and
 * checks each with an 8-byte get, as jshmem did before. The result ({@link Result}) is immutable;
 * the PE's {@link UcxTransport} is built from it and owns what it holds. Any failure releases
 * everything made so far, by its owners in reverse order of creation, before the exception leaves.
 *
 * <h2>Facts about the transports</h2>
 * The runtime asks once, at init, whether the transport's atomics are coherent with CPU atomics
 * (a correctness matter: see {@code Comm}) and whether every remote write into this PE is applied by
 * its own progress ({@code Waiter}'s sleep). Eager wire-up reads them off every endpoint's lanes.
 * Lazy wire-up has no endpoints yet, and those made later must not make the answers false, so it
 * answers for every endpoint UCX could ever make: an endpoint's lanes are drawn from its context's
 * transports, so an answer true of all of them ({@link #offeredTransports}) holds for every peer,
 * of this channel or a created context's, whenever it is connected. The price is caution: with
 * UCX's default UCX_TLS the context offers shared-memory transports besides tcp, so
 * {@code remoteWritesWake} is false (sleepers look again every 100 us) even where the endpoints
 * would all have chosen tcp; UCX_TLS=tcp (or eager wire-up) gives the exact answer.
 */
final class WireUp {
    private WireUp() {
    }

    /** The steps of init, in order (CONNECT and CHECK with eager wire-up only); tests make each one fail ({@link #failAt}). */
    enum Step { CONTEXT, WORKER, MEM_MAP, PROGRESS, EXCHANGE, CONNECT, CHECK }

    /** For tests: the step at which the next wire-up in this process fails (null: none). */
    static volatile Step failAt;

    /** For tests: the PE transport made last in this process (a job's program inspects its endpoints). */
    static volatile UcxTransport last;

    /**
     * How long the progress thread keeps polling after an event before it sleeps on the event fd,
     * when this node has a core per PE (else 0: spinning would take the core a PE needs).
     */
    static final long DEFAULT_SPIN_MICROS = 50;

    /**
     * What wire-up made, immutable: the context (with the heap's registration), the main channel
     * (worker, the endpoints made so far and later), the push handler installed on it, the
     * progress thread serving it, and what was learnt of the transports. The PE's
     * {@link UcxTransport} is built from it and owns all of it from then on.
     */
    record Result(UcpContext context, Channel main, Pushes pushes, ProgressEngine progress, String name,
            boolean coherentAtomics, boolean remoteWritesWake, boolean amPutSignal) {
    }

    static UcxTransport create(Bootstrap bootstrap, SymmetricHeap heap, Config.Network settings, Map<String, String> env) {
        Ucp.require();
        // Against the CPUs this PE may use, not LaunchEnv.coreShared: a PE bound to a CPU of its
        // own shares it with its progress thread, which must not poll it away from the PE. (Its
        // own waits for operations go by coreShared: the progress thread naps meanwhile.)
        int onNode = heap.pesOnThisNode();
        UcxJob job = new UcxJob(bootstrap, settings, heap.self(), onNode > Runtime.getRuntime().availableProcessors(),
                LaunchEnv.coreShared(onNode));
        bootstrap.onAbort(reason -> job.abortReason = reason);
        UcxTransport t = new UcxTransport(job, wireUp(job, heap, env));
        last = t;
        return t;
    }

    /**
     * Whether this PE wires up eagerly: JSHMEM_UCX_WIREUP=eager, or auto with a UCX that can abort
     * the process when a peer fails during a wire-up ({@link Ucp#abortsOnPeerLossInWireUp}), which
     * lazy endpoints would turn into any first operation to a PE that just died. Eager wire-up
     * happens at init, while every PE is alive.
     */
    static boolean eager(Config.UcxWireUp setting) {
        return switch (setting) {
            case EAGER -> true;
            case LAZY -> false;
            case AUTO -> Ucp.abortsOnPeerLossInWireUp();
        };
    }

    private static void step(UcxJob job, Step s) {
        if (failAt == s) {
            failAt = null;
            throw new ShmemException("PE " + job.me + ": UCX initialization failed: injected failure at " + s);
        }
    }

    /**
     * The steps of init; on failure, what was made is released by its owners, in reverse order of
     * creation (the progress thread stopped first), before the exception leaves.
     */
    private static Result wireUp(UcxJob job, SymmetricHeap heap, Map<String, String> env) {
        UcpContext context = null;
        Channel main = null;
        ProgressEngine progress = null;
        // Outlives the release below: a failed connection check's gets may still be in flight until the worker is gone.
        try (Arena checks = Arena.ofConfined()) {
            try {
                step(job, Step.CONTEXT);
                context = UcpContext.open(job, netDevices(job.settings.ucxListen(), env, heap.pesOnThisNode() < job.npes));
                step(job, Step.WORKER);
                main = new Channel(job, context, true, true);
                // Before the address is published: a peer may push as soon as it has connected.
                Pushes pushes = new Pushes(job.me, heap.self());
                pushes.install(main.workerHandle, job.arena, job);
                byte[] myAddress = main.address();

                step(job, Step.MEM_MAP);
                MemorySegment self = heap.self();
                byte[] myRkey = context.mapHeap(job, self);

                // Peers must be served from now on: they connect to us as soon as the fence is passed.
                step(job, Step.PROGRESS);
                long spin = job.settings.ucxProgressSpinNanos();
                progress = new ProgressEngine(main, main.eventFd, job.arena,
                        spin >= 0 ? spin : job.oversubscribed ? 0 : DEFAULT_SPIN_MICROS * 1_000L);
                progress.start();

                step(job, Step.EXCHANGE);
                job.bootstrap.put("ucx.addr." + job.me, myAddress);
                job.bootstrap.put("ucx.rkey." + job.me, myRkey);
                job.bootstrap.put("ucx.base." + job.me, UcxJob.longBytes(self.address()));
                job.mine = new UcxJob.Peer(myAddress, myRkey, self.address());
                job.bootstrap.fence();
                if (eager(job.settings.ucxWireUp())) {
                    // An endpoint to every off-node PE, each checked; the facts read off their lanes.
                    EndpointFacts facts = new EndpointFacts();
                    main.facts = facts;
                    try {
                        connectEveryone(job, main, heap, checks);
                    } finally {
                        main.facts = null;
                    }
                    // remoteWritesWake from this PE's own endpoints: peers reach it with the same
                    // UCX_TLS (a job's PEs share their environment), so through the same transports.
                    return new Result(context, main, pushes, progress, "ucx (" + facts.transports() + ")",
                            atomicsCoherent(main, facts), facts.writesNeedProgress(),
                            amPutSignal(job.settings.ucxPutSignal(), facts.writesNeedProgress() && facts.oneLane()));
                }
                // Lazy: see the class comment.
                String contextInfo = Ucp.contextInfo(context.handle());
                List<String> offered = offeredTransports(contextInfo);
                return new Result(context, main, pushes, progress,
                        "ucx (" + (offered.isEmpty() ? "no transport to other PEs" : String.join(", ", offered)) + ")",
                        cpuAtomicTransports(offered), PROGRESS_WRITE_TRANSPORTS.containsAll(offered),
                        amPutSignal(job.settings.ucxPutSignal(), oneTcpDevice(contextInfo)));
            } catch (RuntimeException | Error e) {
                job.closed = true;
                if (progress != null) {
                    progress.stop();
                }
                if (main != null) {
                    main.release(false);
                }
                if (context != null) {
                    context.close();
                }
                job.arena.close();
                throw e;
            }
        }
    }

    /** Eager wire-up: an endpoint to every off-node PE, then an 8-byte get from each (its slot in {@code checks}). */
    private static void connectEveryone(UcxJob job, Channel main, SymmetricHeap heap, Arena checks) {
        step(job, Step.CONNECT);
        MemorySegment[] peers = heap.peers();
        List<Integer> offNode = new ArrayList<>();
        for (int pe = 0; pe < job.npes; pe++) {
            if (pe != job.me && peers[pe] == null) {
                offNode.add(pe);
            }
        }
        job.prefetch(offNode); // their addresses in one batch of lookups, not three round trips each
        for (int pe : offNode) {
            main.connect(pe);
        }
        step(job, Step.CHECK);
        checkConnections(main, job.npes, checks);
    }

    /**
     * The transports a context offers for reaching other PEs (its resources but {@code self}, which
     * only reaches this PE), sorted, from {@code ucp_context_print_info}. Every lane of every
     * endpoint made on the context uses one of them.
     */
    static List<String> offeredTransports(String contextInfo) {
        TreeSet<String> tls = new TreeSet<>(UcxInfo.resources(contextInfo).keySet());
        tls.remove("self");
        return List.copyOf(tls);
    }

    /** An 8-byte get from every connected peer, all in flight together: reports an unreachable peer at init, by number. */
    private static void checkConnections(Channel main, int npes, Arena checks) {
        MemorySegment slots = checks.allocate(8L * npes, 8);
        long[] requests = new long[npes];
        for (int pe = 0; pe < npes; pe++) {
            if (main.connected(pe)) {
                requests[pe] = main.post(Channel.GET, pe, slots.address() + 8L * pe, 8, 0);
            }
        }
        for (int pe = 0; pe < npes; pe++) {
            if (main.connected(pe)) {
                main.await(requests[pe], pe, "connection check (8-byte get)");
            }
        }
    }

    // ------------------------------------------------------------------ which transports, which atomics

    private static final Pattern LANE_TL = Pattern.compile("lane\\[\\d+\\]:\\s+\\d+:([A-Za-z0-9_]+)/");
    private static final Pattern LANE = Pattern.compile("lane\\[\\d+\\]:\\s+\\d+:([A-Za-z0-9_]+)/[^\\n]*");

    /** Transport names of the lanes listed by ucp_ep_print_info ("lane[0]:  2:tcp/lo.0 md[1] ..."). */
    static List<String> transportsIn(String epInfo) {
        List<String> out = new ArrayList<>();
        Matcher m = LANE_TL.matcher(epInfo);
        while (m.find()) {
            if (!out.contains(m.group(1))) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** Transport names of the lanes that carry atomics ("amo" in the lane's line). */
    static List<String> atomicTransportsIn(String epInfo) {
        List<String> out = new ArrayList<>();
        Matcher m = LANE.matcher(epInfo);
        while (m.find()) {
            if (m.group().matches(".*\\samo\\b.*") && !out.contains(m.group(1))) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /**
     * Transports whose atomics the target's CPU performs (or that have none, so UCX emulates them
     * with active messages the target's CPU executes): coherent with CPU atomics on the same word.
     * Any other transport carrying atomics (rc_verbs, rc_mlx5, dc_mlx5, ... : the network card
     * performs them) is not.
     */
    static final Set<String> CPU_ATOMIC_TRANSPORTS = Set.of("self", "tcp", "posix", "sysv", "xpmem", "knem", "cma", "mm", "sm");

    /**
     * Whether the atomics this PE's endpoints use ({@code facts}) are performed by the target's CPU:
     * the lanes UCX chose for atomics (which reflect UCX_TLS and UCX_ATOMIC_MODE) all use {@link
     * #CPU_ATOMIC_TRANSPORTS}. Without off-node endpoints (a one-node job) it connects to itself to ask.
     */
    static boolean atomicsCoherent(Channel c, EndpointFacts facts) {
        if (facts.endpoints() == 0) {
            c.use(c.job.me);
            return cpuAtomics(c.epInfo(c.job.me));
        }
        return facts.cpuAtomics();
    }

    /**
     * Transports whose puts and atomics into this PE's memory are carried out by this PE's own
     * progress (a peer's process or network card never writes it directly): tcp, and self (this PE
     * itself). Not RDMA transports, nor cma, knem or xpmem (a peer's process copies), nor, to be
     * safe, UCX's shared memory (posix, sysv: it may carry puts into memory UCX maps).
     */
    static final Set<String> PROGRESS_WRITE_TRANSPORTS = Set.of("tcp", "self");

    /** Whether every lane of this PE's endpoints ({@code infos}) uses {@link #PROGRESS_WRITE_TRANSPORTS}. */
    static boolean writesNeedProgress(List<String> infos) {
        for (String info : infos) {
            for (String tl : transportsIn(info)) {
                if (!PROGRESS_WRITE_TRANSPORTS.contains(tl)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether small puts with signal may go as one active message ({@link UcxTransport#putSignal}),
     * the transport-wide test before each endpoint's own ({@link Channel#oneLane}, which alone
     * covers created contexts' endpoints and the peer's side of the lane choice): asked for, and
     * {@code ordered}: every endpoint to another PE is a single TCP lane, which
     * carries its active messages, its puts and gets (tcp has no RMA of its own: UCX emulates it
     * with active messages on that lane) and its atomics (emulated likewise). One TCP stream, whose
     * messages the target's worker handles in the order they arrive: a put-with-signal message is
     * then ordered after the puts and atomics before it, and a get after it completes only once the
     * target has handled it (the quiet of {@link Channel#flushAll}). With more lanes (several TCP
     * devices, {@code JSHMEM_UCX_LISTEN=all}; RDMA or shared-memory transports) nothing says the
     * lanes are ordered with each other, and a put-with-signal stays a put, a fence and an atomic.
     */
    static boolean amPutSignal(Config.UcxPutSignal setting, boolean ordered) {
        return setting == Config.UcxPutSignal.AM && ordered;
    }

    private static final Pattern LANE_LINE = Pattern.compile("lane\\[\\d+\\]:");

    /** Whether every endpoint ({@code infos}: their {@code ucp_ep_print_info}; none: vacuously) has exactly one lane. */
    static boolean oneLane(List<String> infos) {
        for (String info : infos) {
            Matcher m = LANE_LINE.matcher(info);
            int lanes = 0;
            while (m.find()) {
                lanes++;
            }
            if (lanes != 1) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether one endpoint ({@code epInfo}: its {@code ucp_ep_print_info}) is a single lane of tcp
     * (or self, this PE itself): {@link #oneLane} and {@link #writesNeedProgress} of it alone. Each
     * channel asks it of each endpoint it makes ({@link Channel#connect}); an empty text (printing
     * failed) is no lane, so no.
     */
    static boolean orderedLane(String epInfo) {
        List<String> one = List.of(epInfo);
        return !transportsIn(epInfo).isEmpty() && oneLane(one) && writesNeedProgress(one);
    }

    /**
     * Lazy wire-up's first guess at {@link #oneLane} for every endpoint the context could make, from
     * this PE's resources alone: tcp on one device and no other transport to other PEs (self only
     * reaches this PE). Not enough by itself: a peer with two interfaces can still give an endpoint
     * a second lane from that one device, so each endpoint is also checked when it is made
     * ({@link Channel#oneLane}).
     */
    static boolean oneTcpDevice(String contextInfo) {
        Map<String, List<String>> r = UcxInfo.resources(contextInfo);
        for (Map.Entry<String, List<String>> e : r.entrySet()) {
            if (!e.getKey().equals("self") && !(e.getKey().equals("tcp") && e.getValue().size() == 1)) {
                return false;
            }
        }
        return r.containsKey("tcp");
    }

    static boolean cpuAtomics(String epInfo) {
        return CPU_ATOMIC_TRANSPORTS.containsAll(atomicTransportsIn(epInfo));
    }

    /**
     * Transports that carry no atomics (UCX emulates them with active messages the target's CPU
     * executes, or uses another lane): harmless to coherence wherever they are offered.
     */
    static final Set<String> NO_ATOMIC_TRANSPORTS = Set.of("ud_verbs", "ud_mlx5", "cuda_copy", "cuda_ipc", "gdr_copy",
            "rocm_copy", "rocm_ipc");

    /**
     * Whether atomics over any of {@code transports} (lazy wire-up: all a context offers) are
     * performed by the target's CPU: each is one of {@link #CPU_ATOMIC_TRANSPORTS} or carries no
     * atomics. Any other (rc_verbs, rc_mlx5, dc_mlx5, or one this list does not know) may carry
     * device atomics, so the answer is no: then every atomic goes through the transport, which is
     * correct whatever lanes UCX picks, only slower on this node's PEs.
     */
    static boolean cpuAtomicTransports(List<String> transports) {
        for (String tl : transports) {
            if (!CPU_ATOMIC_TRANSPORTS.contains(tl) && !NO_ATOMIC_TRANSPORTS.contains(tl)) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ listeners (JSHMEM_UCX_LISTEN)

    /**
     * The UCX_NET_DEVICES value that restricts UCX's TCP listeners as JSHMEM_UCX_LISTEN asks, or null
     * to leave UCX's choice: UCX_NET_DEVICES set by the user wins; {@code all} leaves every
     * interface; {@code job} picks the interface through which this host reaches the launcher
     * (JSHMEM_BOOTSTRAP; none under PMI launchers, nor when that is loopback in a job spanning
     * nodes: oshrun gives its own node's PEs a loopback address when it reaches the other hosts
     * through several interfaces); otherwise the listed interfaces. RDMA devices
     * (/sys/class/infiniband) are kept in the list, so restricting TCP never hides them.
     */
    static String netDevices(String listen, Map<String, String> env, boolean spansNodes) {
        if (env.get("UCX_NET_DEVICES") != null || listen.equals("all")) {
            return null;
        }
        Set<String> devices = new LinkedHashSet<>();
        if (listen.equals("job")) {
            String iface = interfaceTo(env.get(LaunchEnv.BOOTSTRAP));
            if (iface == null || spansNodes && isLoopback(iface)) {
                return null;
            }
            devices.add(iface);
        } else {
            devices.addAll(List.of(listen.split(",")));
        }
        devices.addAll(rdmaDevices(Path.of("/sys/class/infiniband")));
        return String.join(",", devices);
    }

    private static boolean isLoopback(String iface) {
        try {
            NetworkInterface ni = NetworkInterface.getByName(iface);
            return ni != null && ni.isLoopback();
        } catch (IOException e) {
            return false;
        }
    }

    /** The name of the local interface that routes to {@code hostPort} ("host:port"), or null if unknown. */
    static String interfaceTo(String hostPort) {
        if (hostPort == null || hostPort.lastIndexOf(':') <= 0) {
            return null;
        }
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon).replace("[", "").replace("]", "");
        try (DatagramSocket probe = new DatagramSocket()) {
            // connect() on a datagram socket only picks the route and the source address: nothing is sent.
            probe.connect(new InetSocketAddress(InetAddress.getByName(host), Integer.parseInt(hostPort.substring(colon + 1))));
            InetAddress local = probe.getLocalAddress();
            if (local == null || local.isAnyLocalAddress()) {
                return null;
            }
            NetworkInterface ni = NetworkInterface.getByInetAddress(local);
            while (ni != null && ni.isVirtual() && ni.getParent() != null) {
                ni = ni.getParent();
            }
            return ni == null ? null : ni.getName();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** UCX names of the RDMA ports ("mlx5_0:1"), from /sys/class/infiniband/DEV/ports/N. */
    static List<String> rdmaDevices(Path sysfs) {
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(sysfs)) {
            return out;
        }
        try (Stream<Path> devs = Files.list(sysfs)) {
            for (Path dev : devs.sorted().toList()) {
                try (Stream<Path> ports = Files.list(dev.resolve("ports"))) {
                    ports.sorted().forEach(p -> out.add(dev.getFileName() + ":" + p.getFileName()));
                } catch (IOException e) {
                    // a device without ports: nothing to keep
                }
            }
        } catch (IOException e) {
            // unreadable sysfs: no RDMA devices to keep
        }
        return out;
    }
}
