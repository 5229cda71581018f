#!/usr/bin/env python3
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
"""Report of bench/scale.sh: medians over rounds of init time, wire-up steps, memory and collective
latency per PE count, jshmem beside OSHMEM, and of its jobs across Docker containers (--nodes: init
time, memory and TCP connections per PE) (markdown on stdout).

  scale_report.py --dir RUN_DIR [--conditions TEXT] [--strict]
                        the summary of a run directory; --strict (scale.sh): exit 1 if the traced
                        jobs have no events of a step that today's code has
  scale_report.py --jfr-rows ROUND NPES FILE.json...    jfr.csv rows from `jfr print --json` files
                                                         (used by scale.sh after each traced job)
  scale_report.py --traced-filter       the JFR method filter of the traced jobs (from TRACED)
  scale_report.py --check-methods CP    exit 1, naming them, if the classes on CP lack a traced method
"""
import csv
import json
import os
import re
import statistics
import sys
from collections import defaultdict


def iso_us(text):
    """'2026-12-01T17:43:20.016797597Z' -> microseconds since the epoch (UTC)."""
    import calendar
    m = re.match(r"(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)(?:\.(\d+))?", text)
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    frac = (m.group(7) or "0")[:6].ljust(6, "0")
    return (calendar.timegm((y, mo, d, h, mi, s)) * 1_000_000) + int(frac)


def duration_us(text):
    """ISO-8601 duration as JFR prints it ('PT0.658456131S', 'PT1M2.5S') -> microseconds."""
    m = re.match(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?", text)
    h, mi, s = m.group(1), m.group(2), m.group(3)
    return ((int(h or 0) * 60 + int(mi or 0)) * 60 + float(s or 0)) * 1e6


def method_name(method):
    t = method["type"]["name"].replace("/", ".")
    return t + "." + method["name"]


def jfr_rows(round_, npes, files):
    out = csv.writer(sys.stdout, lineterminator="\n")
    for f in files:
        m = re.search(r"pe-(\d+)\.json$", f)
        if not m or not os.path.getsize(f):
            continue
        with open(f) as fh:
            events = json.load(fh)["recording"]["events"]
        for e in events:
            v = e["values"]
            frames = (v.get("stackTrace") or {}).get("frames") or []
            caller = method_name(frames[0]["method"]) if frames else ""
            out.writerow([round_, npes, m.group(1), method_name(v["method"]), caller,
                          iso_us(v["startTime"]), "%.1f" % duration_us(v["duration"])])


# The init steps of the traced jshmem jobs. TRACED: the methods that implement each step today,
# which scale.sh traces (its JFR filter is made from this table: --traced-filter) and checks against
# the built classes before it runs a job (--check-methods: a renamed method stops the run there).
# OLDER: the names the same steps had in earlier runs (the UCX transport before its split into
# WireUp/Channel/UcxJob, b8d5d4b), so that their committed results still read. Steps in CALLER_ONLY
# are not traced themselves: they are the caller frame of another step's events (the fence).
TRACED = {
    "init": ["io.jshmem.Shmem.init"],
    "bootstrap": ["io.jshmem.core.bootstrap.Bootstraps.select"],
    "heap": ["io.jshmem.core.heap.SymmetricHeap.create"],
    "fence": ["io.jshmem.core.bootstrap.TcpBootstrap.fence"],
    "ucx": ["io.jshmem.ucx.WireUp.create"],
    "wireup": ["io.jshmem.ucx.WireUp.wireUp"],  # the exchange fence's caller
    "connect_all": ["io.jshmem.ucx.WireUp.connectEveryone"],
    "check": ["io.jshmem.ucx.WireUp.checkConnections"],
    "connect": ["io.jshmem.ucx.Channel.connect"],  # an endpoint at first use (lazy wire-up), or eager's
    # peers' addresses, rkeys and bases from the bootstrap: a batch for eager wire-up, one peer at first use
    "lookup": ["io.jshmem.ucx.UcxJob.prefetch"],
    "bindings": ["io.jshmem.ucx.Ucp.<clinit>"],
    "upcall": ["io.jshmem.ucx.UcxJob.<init>"],
    "context": ["io.jshmem.ucx.UcpContext.open"],
    "ucp_init": ["io.jshmem.ucx.Ucp.init"],
    "channel": ["io.jshmem.ucx.Channel.<init>"],
    "worker": ["io.jshmem.ucx.Ucp.workerCreate"],
    "pushes": ["io.jshmem.ucx.Pushes.install"],
    "memmap": ["io.jshmem.ucx.Ucp.memMap"],
    "progress": ["io.jshmem.ucx.ProgressEngine.<init>"],
    # What the transports are: the context's offer (lazy wire-up) or the endpoints' lanes (eager:
    # each endpoint's printout, made in Channel.connect since 2cbb7be).
    "info": ["io.jshmem.ucx.Ucp.contextInfo", "io.jshmem.ucx.Ucp.epInfo"],
    "ep": ["io.jshmem.ucx.Ucp.epCreate"],
    "rkey": ["io.jshmem.ucx.Ucp.epRkeyUnpack"],
}
OLDER = {
    "ucx": ["io.jshmem.ucx.UcxTransport.create"],
    "wireup": ["io.jshmem.ucx.UcxTransport.wireUp"],
    "check": ["io.jshmem.ucx.UcxTransport.checkConnections"],
    "upcall": ["io.jshmem.ucx.UcxTransport.errorHandlerStub"],
    "info": ["io.jshmem.ucx.WireUp.endpointInfos"],
    "lookup": ["io.jshmem.ucx.UcxJob.peer"],
}
CALLER_ONLY = {"wireup"}
STEPS = {step: names + OLDER.get(step, []) for step, names in TRACED.items()}


# Steps that a traced job need not reach: not "missing" when absent.
OPTIONAL = {
    "check": "eager wire-up only: JSHMEM_UCX_WIREUP=eager",
    "connect_all": "eager wire-up only: JSHMEM_UCX_WIREUP=eager",
}

def traced_methods():
    """Today's traced methods, 'package.Class.method'."""
    return [m for step, names in TRACED.items() if step not in CALLER_ONLY for m in names]


def traced_filter():
    """The JFR method filter of the traced jobs: 'package.Class::method;...'."""
    return ";".join("%s::%s" % tuple(m.rsplit(".", 1)) for m in traced_methods())


def check_methods(classpath):
    """The traced methods that the classes on `classpath` lack (javap -p), as messages; [] if all are there."""
    import subprocess
    by_class = defaultdict(list)
    for m in traced_methods() + [m for step in CALLER_ONLY for m in TRACED[step]]:
        cls, name = m.rsplit(".", 1)
        by_class[cls].append(name)
    javap = os.path.join(os.environ["JAVA_HOME"], "bin", "javap") if os.environ.get("JAVA_HOME") else "javap"
    problems = []
    for cls, names in sorted(by_class.items()):
        r = subprocess.run([javap, "-p", "-cp", classpath, cls], capture_output=True, text=True)
        if r.returncode != 0:
            problems.append("class %s not found (%s)" % (cls, (r.stderr or r.stdout).strip().splitlines()[:1]))
            continue
        simple = cls.rsplit(".", 1)[1]
        for name in names:
            if name == "<clinit>":
                found = re.search(r"^\s*static \{\};", r.stdout, re.M)
            elif name == "<init>":
                found = re.search(r"[ .]" + re.escape(simple) + r"\(", r.stdout)
            else:
                found = re.search(r"[ .]" + re.escape(name) + r"\(", r.stdout)
            if not found:
                problems.append("%s.%s is not in %s's classes" % (cls, name, simple))
    return problems


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(x, digits=1):
    if x is None:
        return "-"
    if abs(x) >= 100 or digits == 0:
        return "%.0f" % x
    return "%.*f" % (digits, x)


def spread(xs, digits=1):
    """'median (min-max)' over rounds."""
    xs = [x for x in xs if x is not None]
    if not xs:
        return "-"
    if len(xs) == 1:
        return fmt(xs[0], digits)
    return "%s (%s-%s)" % (fmt(statistics.median(xs), digits), fmt(min(xs), digits), fmt(max(xs), digits))


def read(path):
    """A CSV file of the run, or its .gz (bench/results/scale/ keeps jfr.csv compressed)."""
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        import gzip
        with gzip.open(path + ".gz", "rt") as fh:
            return list(csv.DictReader(fh))
    with open(path) as fh:
        return list(csv.DictReader(fh))


def markdown_table(p, header, rows):
    """A markdown table through the line printer p, and a blank line."""
    p("| " + " | ".join(header) + " |")
    p("|" + "---|" * len(header))
    for row in rows:
        p("| " + " | ".join(row) + " |")
    p("")


def slope(points):
    """Least-squares slope of (x, y) points, or None with fewer than 2 distinct x."""
    pts = [(x, y) for x, y in points if y is not None]
    if len({x for x, _ in pts}) < 2:
        return None
    mx = statistics.mean(x for x, _ in pts)
    my = statistics.mean(y for _, y in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)


def summary(run_dir, conditions):
    """The summary (markdown) and the traced steps missing from the run's jfr.csv (none without one)."""
    jobs = read(os.path.join(run_dir, "jobs.csv"))
    probes = read(os.path.join(run_dir, "probes.csv"))
    ucx = read(os.path.join(run_dir, "ucx.csv"))
    jfr = read(os.path.join(run_dir, "jfr.csv"))

    launch = {(j["round"], j["impl"], j["npes"]): j for j in jobs}
    by_job = defaultdict(list)
    for p in probes:
        impl = p["impl"] if p["variant"] == "plain" else p["impl"] + "-" + p["variant"]
        by_job[(p["round"], impl, p["npes"])].append(p)

    # Per job metrics, then lists over rounds per (impl, npes).
    per = defaultdict(lambda: defaultdict(list))
    pes_counts = sorted({int(j["npes"]) for j in jobs if not j["impl"].startswith("nodes-")})
    for (r, impl, n), rows in by_job.items():
        j = launch.get((r, impl, n))
        if j is None or j["rc"] != "0" or len(rows) != int(n):
            continue
        f = lambda k: [float(x[k]) for x in rows]
        t0 = float(j["t_launch_us"])
        m = per[(impl, int(n))]
        m["launch_ms"].append(med([(x - t0) / 1e3 for x in f("t_main_us")]))
        m["init_ms"].append(med([a - b for a, b in zip(f("t_init_us"), f("t_main_us"))]) / 1e3)
        m["init_last_ms"].append((med(f("t_init_us")) - max(f("t_main_us"))) / 1e3)
        m["ready_ms"].append((max(f("t_ready_us")) - t0) / 1e3)
        m["cpu_ready_s"].append(med(f("cpu_ready_ms")) / 1e3)
        m["wall_s"].append(float(j["wall_s"]))
        m["cpu_s"].append(float(j["cpu_s"]))
        m["load"].append(float(j["load_avg"]))
        m["other"].append(float(j["other_cpu"]))
        for k in ("rss1", "pss1", "uss1"):
            m[k].append(med(f(k)) / 1024)
        m["rss_d"].append(med([a - b for a, b in zip(f("rss1"), f("rss0"))]) / 1024)
        m["uss_d"].append(med([a - b for a, b in zip(f("uss1"), f("uss0"))]) / 1024)
        if impl.startswith("jshmem"):
            m["jheap_d"].append(med([a - b for a, b in zip(f("jheap1"), f("jheap0"))]) / 1024)
            # The minimum over PEs: some PEs keep ~1 MiB more (not per peer), which hides the per-peer part.
            m["jheap_d_min"].append(min(a - b for a, b in zip(f("jheap1"), f("jheap0"))) / 1024)
        m["barrier_us"].append(statistics.mean(f("barrier_us")))
        m["bcast_us"].append(statistics.mean(f("bcast_us")))
        m["iters"].append(med(f("iters")))

    # jshmem wire-up from the traced jobs.
    ev = defaultdict(lambda: defaultdict(list))  # (round, npes) -> pid -> events
    for e in jfr:
        ev[(e["round"], int(e["npes"]))][e["pid"]].append(e)
    seen = {e["method"] for e in jfr} | {e["caller"] for e in jfr}
    missing = sorted(step for step, names in STEPS.items()
                     if not seen & set(names) and step not in OPTIONAL and step not in CALLER_ONLY) if jfr else []
    if jfr and not seen & set(STEPS["wireup"]):
        missing.append("wireup")
    not_run = sorted(step for step in OPTIONAL if not seen & set(STEPS[step]))
    for (r, n), pids in ev.items():
        if len(pids) != n:
            continue
        w = per[("jshmem-wireup", n)]

        def each(step, caller=None):
            """Per PE, the events of a step (STEPS), called from a caller step if given, by start time."""
            names = set(STEPS[step])
            callers = set(STEPS[caller]) if caller else None
            return {pid: sorted((e for e in es if e["method"] in names and (callers is None or e["caller"] in callers)),
                                key=lambda e: float(e["start_us"])) for pid, es in pids.items()}

        def total_ms(step):
            groups = each(step).values()
            if not any(groups):
                return None  # not traced
            return med([sum(float(e["duration_us"]) for e in es) for es in groups]) / 1e3

        def skew_free_ms(groups, index=0):
            """Collective step: median end minus the last PE's start (the step once all are in)."""
            starts, ends = [], []
            for es in groups.values():
                if len(es) <= index:
                    return None
                s = float(es[index]["start_us"])
                starts.append(s)
                ends.append(s + float(es[index]["duration_us"]))
            return (med(ends) - max(starts)) / 1e3

        w["init_ms"].append(total_ms("init"))
        w["bootstrap_ms"].append(total_ms("bootstrap"))
        w["heap_fence_ms"].append(skew_free_ms(each("fence", "heap"), 0))
        w["heap_fence2_ms"].append(skew_free_ms(each("fence", "heap"), 1))
        creates = each("ucx")
        xfence = each("fence", "wireup")
        local = []
        for pid in pids:
            if creates[pid] and xfence[pid]:
                local.append((float(xfence[pid][0]["start_us"]) - float(creates[pid][0]["start_us"])) / 1e3)
        w["ucx_local_ms"].append(med(local))
        w["bindings_ms"].append(total_ms("bindings"))
        w["upcall_ms"].append(total_ms("upcall"))
        w["ucp_init_ms"].append(total_ms("ucp_init"))
        w["worker_ms"].append(total_ms("worker"))
        w["memmap_ms"].append(total_ms("memmap"))
        for step in ("context", "channel", "pushes", "progress", "info"):
            w[step + "_ms"].append(total_ms(step))
        w["addr_xchg_ms"].append(skew_free_ms(xfence, 0))
        w["addr_fence_wait_ms"].append(med([float(es[0]["duration_us"]) / 1e3 for es in xfence.values() if es]))
        ep = total_ms("ep")
        w["ep_ms"].append(ep)
        ep_calls = med([len(es) for es in each("ep").values()])
        w["ep_us_each"].append(ep * 1e3 / ep_calls if ep is not None and ep_calls else None)
        w["ep_calls"].append(ep_calls)
        w["connect_ms"].append(total_ms("connect"))
        w["lookup_ms"].append(total_ms("lookup"))
        # One call: the first of each PE pays for linking the downcall; the median is the steady cost.
        calls = [float(e["duration_us"]) for es in each("ep").values() for e in es]
        w["ep_us_call"].append(med(calls))
        w["rkey_ms"].append(total_ms("rkey"))
        w["check_ms"].append(total_ms("check"))
        w["ucx_total_ms"].append(total_ms("ucx"))

    # OSHMEM wire-up from the ucxtime shim.
    sh = defaultdict(lambda: defaultdict(lambda: {"time": {}, "calls": []}))
    sizes = []  # (worker address bytes, packed rkey bytes) per OSHMEM PE
    for u in ucx:
        d = sh[(u["round"], int(u["npes"]))][u["pid"]]
        if u["kind"] == "ucxsize":
            sizes.append((int(u["a"]), int(u["c"])))
            continue
        if u["kind"] == "ucxtime":
            d["time"][u["function"]] = (int(u["a"]), float(u["b"]), float(u["c"]), float(u["d"]))
        else:
            d["calls"].append((u["function"], float(u["a"]), float(u["b"])))
    for (r, n), pids in sh.items():
        if len(pids) != n:
            continue
        o = per[("oshmem-wireup", n)]
        g = lambda fn, i: med([d["time"][fn][i] for d in pids.values() if fn in d["time"]])
        o["ucp_init_ms"].append((g("ucp_init", 1) or 0) / 1e3)
        o["worker_ms"].append((g("ucp_worker_create", 1) or 0) / 1e3)
        o["workers"].append(g("ucp_worker_create", 0))
        o["memmap_ms"].append((g("ucp_mem_map", 1) or 0) / 1e3)
        o["ep_calls"].append(g("ucp_ep_create", 0))
        ep = g("ucp_ep_create", 1)
        o["ep_ms"].append(ep / 1e3 if ep is not None else None)
        o["ep_us_each"].append(ep / g("ucp_ep_create", 0) if ep is not None else None)
        rk = g("ucp_ep_rkey_unpack", 1)
        o["rkey_ms"].append(rk / 1e3 if rk is not None else None)
        o["rkey_calls"].append(g("ucp_ep_rkey_unpack", 0))
        # Address exchange: from the last PE's ucp_worker_get_address (before its first endpoint) to
        # the median PE's first ucp_ep_create: the allgather of worker addresses, once all are in.
        addr_end, first_ep = [], []
        for d in pids.values():
            if "ucp_ep_create" not in d["time"]:
                continue
            fe = d["time"]["ucp_ep_create"][2]
            ends = [b for fn, a, b in d["calls"] if fn == "ucp_worker_get_address" and b <= fe]
            if ends:
                addr_end.append(max(ends))
                first_ep.append(fe)
        if addr_end:
            o["addr_xchg_ms"].append((med(first_ep) - max(addr_end)) / 1e3)
            o["addr_wait_ms"].append(med([b - a for a, b in zip(addr_end, first_ep)]) / 1e3)

    out = []
    p = out.append
    if not pes_counts:
        p("# Scale probe: jshmem across Docker containers as nodes\n")
        p("Measured run: " + conditions + "\n")
        p("No one-node jobs in this run (scale.sh --pes none).\n")
        nodes_section(run_dir, jobs, p)
        return "\n".join(out), []
    p("# Scale probe: jshmem and OSHMEM over UCX (tcp,self) on one machine\n")
    p("Measured run: " + conditions + "\n")
    p("Every cell: median over rounds, with (min-max) over rounds where it matters; within a job, the")
    p("median over PEs unless the column says otherwise. Launch = the script's launch of oshrun to the PE")
    p("reaching main (for jshmem: JVM start included). Init = main to init's return. Init after last")
    p("arrival = median PE's init return minus the last PE's arrival in main (the collective part, without")
    p("the start-up skew). Ready = launch to the last PE past the first barrier. CPU at ready = the PE's")
    p("own CPU time up to then (JVM start, class loading, JIT included for jshmem).\n")

    def both(failed=False):
        """(PEs, impl, metrics) of the plain jobs, jshmem then OSHMEM per PE count; metrics None if
        every round failed (listed only with failed=True)."""
        for n in pes_counts:
            for impl in ("jshmem", "oshmem"):
                m = per.get((impl, n))
                if m or failed:
                    yield n, impl, m

    def table(header, rows):
        markdown_table(p, header, rows)

    p("## Start-up and init\n")
    rows = []
    for n, impl, m in both(failed=True):
        if not m:
            rows.append([str(n), impl] + ["(failed)"] * 9)
        else:
            rows.append([str(n), impl, spread(m["launch_ms"], 0), spread(m["init_ms"], 0), spread(m["init_last_ms"], 0),
                         spread(m["ready_ms"], 0), fmt(med(m["cpu_ready_s"]), 2), fmt(med(m["wall_s"])),
                         fmt(med(m["cpu_s"])), fmt(med(m["load"])), fmt(med(m["other"]))])
    table(["PEs", "impl", "launch ms", "init ms", "init after last arrival ms", "ready ms", "CPU at ready s/PE",
           "job wall s", "job CPU s", "load", "other busy cores"], rows)

    p("## Wire-up steps (per PE, ms; jshmem from JFR-traced jobs, OSHMEM from the ucxtime shim)\n")
    p("jshmem: bootstrap = connecting to oshrun; heap fence = the first bootstrap fence of the symmetric")
    p("heap (segment names), after the last PE arrived; UCX local = WireUp.create to its fence (wall time,")
    p("of which: Ucp.<clinit> = loading libucp (setenv, library lookup; since cac70f1 each downcall handle is")
    p("made at its function's first call, so its linking is inside the step that first calls it; before, all")
    p("of them were made here), the")
    p("error handler's upcall stub, the context (UcpContext.open: ucp_init's config and ucp_init), the main")
    p("channel (its worker), the push handler (its upcall stub), the heap registration, the progress")
    p("thread, and what the transports are (ucp_context_print_info, or the endpoints' with eager wire-up,")
    p("after the fence)); address exchange = the UCX fence (worker")
    p("addresses, rkeys, bases through oshrun) after the last PE arrived, and in parentheses the whole")
    p("wait in it; endpoints = ucp_ep_create total over the peers connected by the end of the probe's")
    p("barriers (lazy wire-up: those init's barrier and the probe's touch; eager, auto's choice with UCX")
    p("1.13 and older: all N-1) [calls x mean us; the median single call, without the first call's linking")
    p("of the downcall], and after it the connections in full (Channel.connect: ucp_ep_create and the")
    p("rkey, and with lazy wire-up the bootstrap lookups of the peer's data), then the lookups alone in")
    p("parentheses (UcxJob.prefetch: eager wire-up's one batch for every off-node peer before it connects,")
    p("or one peer's three keys at its first use); rkeys =")
    p("ucp_ep_rkey_unpack total; check = one 8-byte get from every peer (eager wire-up only). OSHMEM: the same UCX calls,")
    p("timed by the shim; its address exchange = last PE's ucp_worker_get_address to the median PE's")
    p("first ucp_ep_create (an MPI allgather inside shmem_init), in parentheses the median PE's wait.\n")
    rows = []
    for n in pes_counts:
        w = per.get(("jshmem-wireup", n))
        o = per.get(("oshmem-wireup", n))
        if w:
            rows.append([str(n), "jshmem", fmt(med(w["bootstrap_ms"])), fmt(med(w["heap_fence_ms"])),
                         "%s (Ucp.<clinit> %s, upcall stub %s, context %s [ucp_init %s], channel %s [worker %s], "
                         "pushes %s, reg %s, progress %s, transport info %s)" % (
                             fmt(med(w["ucx_local_ms"])), fmt(med(w["bindings_ms"])), fmt(med(w["upcall_ms"])),
                             fmt(med(w["context_ms"])), fmt(med(w["ucp_init_ms"])), fmt(med(w["channel_ms"])),
                             fmt(med(w["worker_ms"])), fmt(med(w["pushes_ms"])), fmt(med(w["memmap_ms"])),
                             fmt(med(w["progress_ms"])), fmt(med(w["info_ms"]))),
                         "%s (%s)" % (spread(w["addr_xchg_ms"]), fmt(med(w["addr_fence_wait_ms"]))),
                         "%s [%s x %s us; median call %s us]; connect %s (lookups %s)" % (
                             fmt(med(w["ep_ms"])), fmt(med(w["ep_calls"]), 0), fmt(med(w["ep_us_each"])),
                             fmt(med(w["ep_us_call"])), fmt(med(w["connect_ms"])), fmt(med(w["lookup_ms"]))),
                         fmt(med(w["rkey_ms"]), 2), fmt(med(w["check_ms"])), spread(w["ucx_total_ms"]),
                         spread(w["init_ms"])])
        else:
            rows.append([str(n), "jshmem"] + ["-"] * 8)
        if o:
            rows.append([str(n), "oshmem", "-", "-",
                         "%s (init %s, %s workers %s, reg %s)" % (
                             fmt(med(o["ucp_init_ms"]) + med(o["worker_ms"])), fmt(med(o["ucp_init_ms"])),
                             fmt(med(o["workers"]), 0), fmt(med(o["worker_ms"])), fmt(med(o["memmap_ms"]))),
                         "%s (%s)" % (spread(o["addr_xchg_ms"]), fmt(med(o["addr_wait_ms"]))),
                         "%s [%s x %s us]" % (fmt(med(o["ep_ms"])), fmt(med(o["ep_calls"]), 0), fmt(med(o["ep_us_each"]))),
                         "%s [%s]" % (fmt(med(o["rkey_ms"]), 2), fmt(med(o["rkey_calls"]), 0)), "-", "-", "-"])
    table(["PEs", "impl", "bootstrap", "heap fence", "UCX local", "address exchange", "endpoints", "rkeys", "check",
           "UCX total", "init (traced)"], rows)
    if sizes:
        p("UCX worker address %s bytes, packed remote key %s bytes (OSHMEM's, from the shim; the same UCX"
          " configuration as jshmem's).\n" % (fmt(med([a for a, _ in sizes]), 0), fmt(med([r for _, r in sizes]), 0)))
    if not jfr:
        p("No JFR-traced jobs in this run (scale.sh --no-trace): the jshmem wire-up steps are not measured.\n")
    elif missing:
        # An older run (its code had no such method yet), or a method renamed since TRACED was written:
        # scale.sh runs this with --strict, which fails on it.
        p("Not traced in this run: " + "; ".join("%s (expected %s)" % (s, " or ".join(STEPS[s])) for s in missing) + "\n")
    if not_run and jfr:
        p("Not run in these jobs: " + "; ".join("%s (%s)" % (s, OPTIONAL[s]) for s in not_run) + "\n")

    p("## Memory per PE after init (MiB)\n")
    p("RSS counts shared pages in full in every PE; PSS divides them among the processes that map them")
    p("(the JDK's files, the heaps' shared segments); USS = private pages. Init delta = after minus")
    p("before init in the same process. Java heap delta = live Java heap after a full GC, after minus")
    p("before init (the runtime's Java objects).\n")
    rows = []
    for n, impl, m in both():
        rows.append([str(n), impl, fmt(med(m["rss1"])), fmt(med(m["pss1"])), fmt(med(m["uss1"])),
                     fmt(med(m["rss_d"])), fmt(med(m["uss_d"])),
                     "%s (min %s)" % (fmt(med(m["jheap_d"]), 2), fmt(min(m["jheap_d_min"]), 3))
                     if impl == "jshmem" else "-"])
    table(["PEs", "impl", "RSS", "PSS", "USS", "RSS init delta", "USS init delta", "Java heap delta (min over PEs)"], rows)
    for impl in ("jshmem", "oshmem"):
        pts = [(n, med(per[(impl, n)]["uss1"])) for n in pes_counts if (impl, n) in per]
        s_uss = slope(pts)
        pts = [(n, med(per[(impl, n)]["rss_d"])) for n in pes_counts if (impl, n) in per]
        s_rss = slope(pts)
        line = "%s: least-squares slope over the PE counts: USS %s KiB per added PE, RSS init delta %s KiB per added PE" % (
            impl, fmt(s_uss * 1024 if s_uss is not None else None), fmt(s_rss * 1024 if s_rss is not None else None))
        if impl == "jshmem":
            pts = [(n, med(per[(impl, n)]["jheap_d"])) for n in pes_counts if (impl, n) in per]
            s_j = slope(pts)
            line += ", Java heap %s KiB per added PE" % fmt(s_j * 1024 if s_j is not None else None)
            pts = [(n, min(per[(impl, n)]["jheap_d_min"])) for n in pes_counts if (impl, n) in per]
            s_m = slope(pts)
            line += " (its minimum over PEs: %s KiB per added PE)" % fmt(s_m * 1024 if s_m is not None else None)
        p("* " + line + ".")
    p("")

    p("## Collective latency (us, mean over PEs; oversubscribed beyond 2 PEs)\n")
    rows = []
    for n, impl, m in both():
        rows.append([str(n), impl, spread(m["barrier_us"]), spread(m["bcast_us"]), fmt(med(m["iters"]), 0)])
    table(["PEs", "impl", "barrier_all", "broadcast 8 B", "iterations"], rows)
    nodes_section(run_dir, jobs, p)
    return "\n".join(out), missing


def nodes_section(run_dir, jobs, p):
    """The jobs across Docker containers (scale.sh --nodes), from nodes.csv: per shape and wire-up,
    medians over rounds, then per PE; nothing for runs without such jobs."""
    path = os.path.join(run_dir, "nodes.csv")
    rows = read(path) if os.path.exists(path) or os.path.exists(path + ".gz") else []
    if not rows:
        return
    jobs_by = {(j["round"], j["impl"]): j for j in jobs}
    by_job = defaultdict(list)
    for row in rows:
        by_job[(row["round"], row["shape"], row["wireup"])].append(row)
    per = defaultdict(lambda: defaultdict(list))
    per_pe = defaultdict(lambda: defaultdict(list))
    failed = defaultdict(int)
    for (r, shape, w), prs in by_job.items():
        j = jobs_by.get((r, "nodes-%s-%s" % (shape, w)))
        n = int(prs[0]["npes"])
        if j is None or j["rc"] != "0" or len(prs) != n or any(x["checks"] != "ok" for x in prs):
            failed[(shape, w)] += 1
            continue
        f = lambda k: [float(x[k]) for x in prs]
        m = per[(shape, w)]
        launch = float(prs[0]["t_launch_us"])
        m["launch_ms"].append(med([(x - launch) / 1e3 for x in f("t_main_us")]))
        m["init_ms"].append(med([a - b for a, b in zip(f("t_init_us"), f("t_main_us"))]) / 1e3)
        m["ready_ms"].append((max(f("t_ready_us")) - launch) / 1e3)
        m["wall_s"].append(float(j["wall_s"]))
        m["cpu_ready_s"].append(med(f("cpu_ready_ms")) / 1e3)
        for k in ("rss1", "pss1", "uss1", "uss2"):
            m[k].append(med(f(k)) / 1024)
        for k in ("tcp_ready", "tcp_bcast", "tcp_end"):
            m[k].append(med(f(k)))
            m[k + "_max"].append(max(f(k)))
        m["tcp_launcher"].append(med(f("tcp_launcher")))
        m["peer_hosts"].append(med(f("peer_hosts")))
        for x in prs:
            q = per_pe[(shape, w, int(x["pe"]))]
            q["host"] = x["host"]
            q["ready_ms"].append((float(x["t_ready_us"]) - launch) / 1e3)
            q["init_ms"].append((float(x["t_init_us"]) - float(x["t_main_us"])) / 1e3)
            for k in ("rss1", "uss1", "uss2"):
                q[k].append(float(x[k]) / 1024)
            for k in ("tcp_ready", "tcp_bcast", "tcp_end", "peer_hosts"):
                q[k].append(float(x[k]))

    def table(header, body):
        markdown_table(p, header, body)

    def tcp(m, k):
        return "%s (max %s)" % (fmt(med(m[k]), 0), fmt(max(m[k + "_max"]), 0))

    keys = sorted({(shape, w) for (_, shape, w) in by_job}, key=lambda k: (int(k[0].split("x")[0]), k[0], k[1]))
    p("## Across nodes: Docker containers (jshmem only; scale.sh --nodes)\n")
    p("""Shape = nodes x PEs per node; PEs of a node on shared memory, across nodes UCX (tcp,self), with the
wire-up policy JSHMEM_UCX_WIREUP. Each PE runs MultiNodeProbe: init, a barrier, a ring put, a
broadcast from PE 0, a sum reduction (values checked). Launch = the script's launch of oshrun to
the PE reaching main; init = main to init's return; ready = launch to the last PE past the first
barrier; memory from /proc inside the container after the first barrier (USS also at the end);
TCP = the PE's established TCP connections after the first barrier / after the ring put and the
broadcast / after the reduction, median over PEs (max over PEs), the bootstrap's connection to
oshrun included; nodes = other nodes' addresses among them at the end. Job wall = oshrun's.
""")
    body = []
    for key in keys:
        m = per.get(key)
        n_failed = failed.get(key, 0)
        if not m:
            body.append([key[0], key[1]] + ["(failed)"] * 12)
            continue
        body.append([key[0], key[1], spread(m["launch_ms"], 0), spread(m["init_ms"], 0), spread(m["ready_ms"], 0),
                     fmt(med(m["cpu_ready_s"]), 2), fmt(med(m["rss1"])), fmt(med(m["pss1"])), fmt(med(m["uss1"])),
                     fmt(med(m["uss2"])), "%s / %s / %s" % (tcp(m, "tcp_ready"), tcp(m, "tcp_bcast"), tcp(m, "tcp_end")),
                     fmt(med(m["tcp_launcher"]), 0), fmt(med(m["peer_hosts"]), 0),
                     "%s%s" % (fmt(med(m["wall_s"])), " (%d failed)" % n_failed if n_failed else "")])
    table(["shape", "wire-up", "launch ms", "init ms", "ready ms", "CPU at ready s/PE", "RSS MiB", "PSS MiB",
           "USS MiB", "USS at end MiB", "TCP per PE: ready / bcast / end", "to oshrun", "nodes", "job wall s"], body)
    p("Per PE (median over rounds): ready ms, init ms, RSS / USS MiB after the first barrier, USS at the end,")
    p("TCP connections ready / bcast / end, other nodes reached.\n")
    for key in keys:
        pes = sorted(pe for (s_, w_, pe) in per_pe if (s_, w_) == key)
        if not pes:
            continue
        body = []
        for pe in pes:
            q = per_pe[(key[0], key[1], pe)]
            body.append([str(pe), q["host"], fmt(med(q["ready_ms"]), 0), fmt(med(q["init_ms"]), 0),
                         "%s / %s" % (fmt(med(q["rss1"])), fmt(med(q["uss1"]))), fmt(med(q["uss2"])),
                         "%s / %s / %s" % (fmt(med(q["tcp_ready"]), 0), fmt(med(q["tcp_bcast"]), 0),
                                           fmt(med(q["tcp_end"]), 0)), fmt(med(q["peer_hosts"]), 0)])
        p("%s, wire-up %s:\n" % key)
        table(["PE", "host", "ready ms", "init ms", "RSS / USS MiB", "USS at end MiB", "TCP ready / bcast / end",
               "nodes"], body)


def main(argv):
    if len(argv) >= 3 and argv[0] == "--jfr-rows":
        jfr_rows(argv[1], argv[2], argv[3:])
        return 0
    if argv == ["--traced-filter"]:
        print(traced_filter())
        return 0
    if len(argv) == 2 and argv[0] == "--check-methods":
        problems = check_methods(argv[1])
        for problem in problems:
            print("scale_report.py: traced method missing: " + problem, file=sys.stderr)
        if problems:
            print("scale_report.py: update TRACED in bench/scale_report.py to today's method names", file=sys.stderr)
        return 1 if problems else 0
    strict = "--strict" in argv
    argv = [a for a in argv if a != "--strict"]
    if len(argv) >= 2 and argv[0] == "--dir":
        conditions = argv[3] if len(argv) >= 4 and argv[2] == "--conditions" else ""
        text, missing = summary(argv[1], conditions)
        print(text)
        if missing and strict:
            print("scale_report.py: the traced jobs recorded no events for: "
                  + "; ".join("%s (%s)" % (s, " or ".join(TRACED[s])) for s in missing)
                  + " (renamed or no longer reached: update TRACED in bench/scale_report.py)", file=sys.stderr)
            return 1
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
