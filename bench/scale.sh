#!/usr/bin/env bash
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
# Scale probe: init time, wire-up and memory per PE of jshmem and of Open MPI's OSHMEM over UCX
# (UCX_TLS=tcp,self) at several PE counts on this machine, interleaved, several rounds; with --nodes,
# jshmem jobs across Docker containers as nodes too; then bench/scale_report.py writes the medians.
# See --help and bench/README.md ("Scale").
set -euo pipefail

usage() {
    cat <<'EOF'
usage: bench/scale.sh [--pes N,...|none] [--nodes KxP,...] [--wireup W,...] [--rounds R] [--no-trace]
                      [--timeout S] [--out DIR] [--help]

For each round and each PE count (ascending), runs as jobs one after the other (the order of
jshmem and OSHMEM alternates from round to round):
  jshmem         bin/oshrun -np N -x SHMEM_TRANSPORT=ucx -x UCX_TLS=tcp,self ... ScaleProbe
  oshmem         oshrun -np N -x UCX_TLS=tcp,self --mca btl tcp,self ... bench/c/scale, with the
                 ucxtime shim preloaded (bench/c/ucxtime.c: times OSHMEM's UCX calls)
  jshmem-traced  the jshmem job again with JFR method tracing of init's steps (bootstrap fences,
                 UCX context/worker/registration, endpoints made at first use with their
                 bootstrap lookups, the connection check of eager wire-up); its
                 times are used only for the wire-up breakdown, its memory is not reported
Each PE reports when it reached main, finished init and passed the first barrier, its memory
(Rss, Pss, USS from /proc/self/smaps_rollup; jshmem also the Java heap after a full GC) before
and after init, its CPU time, and barrier_all and 8-byte broadcast latencies.

  --pes N,...    PE counts (default 2,4,8,16,32); more PEs than cores run unbound; none: no
                 one-node jobs (only --nodes)
  --nodes KxP,...  also jobs across K Docker containers as nodes, P PEs each (e.g. 8x2), jshmem
                 only (the node image has no OSHMEM): bin/oshrun --host with "docker exec -i" as
                 the launch agent, PEs of a node on shared memory, across nodes UCX (tcp,self),
                 running io.jshmem.bench.MultiNodeProbe (init, a barrier, a ring put, a broadcast,
                 a sum reduction, the values checked); each PE records its init time, memory
                 and established TCP connections. Needs a Docker daemon and the image
                 jshmem-node:1 (multinode/setup-docker.sh; built here if missing)
  --wireup W,...   JSHMEM_UCX_WIREUP of the --nodes jobs, one job each (default lazy,eager)
  --rounds R     rounds (default 3); the report takes the median over rounds
  --no-trace     skip the JFR-traced jshmem jobs
  --timeout S    per job (default 900: 32 JVMs on 2 cores with other work take minutes)
  --out DIR      the run directory (default bench/runs/scale-<UTC time>)
  -h, --help     this text

Writes into the run directory: jobs.csv (one row per job: wall, CPU-seconds, load, other busy
cores; for --nodes jobs the CPU is oshrun's only, the PEs run under Docker), probes.csv (one row
per PE), ucx.csv (the shim's rows), jfr.csv (traced init steps), nodes.csv (one row per PE of
the --nodes jobs), summary.md (bench/scale_report.py) and run.log. Exit status: 0 if every job succeeded, 1 if one
failed or a traced step recorded no event (the report is still written), 2 on bad usage, a failed
build, or traced methods (bench/scale_report.py's TRACED) that the code no longer has.
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
source "$here/lib.sh"

pes_list=(2 4 8 16 32)
nodes_list=()
wireups=(lazy eager)
rounds=3
trace=1
timeout_s=900
out=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --pes) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra pes_list <<<"$2"; shift ;;
        --pes=*) IFS=, read -ra pes_list <<<"${1#*=}" ;;
        --nodes) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra nodes_list <<<"$2"; shift ;;
        --nodes=*) IFS=, read -ra nodes_list <<<"${1#*=}" ;;
        --wireup) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra wireups <<<"$2"; shift ;;
        --wireup=*) IFS=, read -ra wireups <<<"${1#*=}" ;;
        --rounds) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; rounds=$2; shift ;;
        --rounds=*) rounds=${1#*=} ;;
        --timeout) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; timeout_s=$2; shift ;;
        --timeout=*) timeout_s=${1#*=} ;;
        --no-trace) trace=0 ;;
        --out) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; out=$2; shift ;;
        --out=*) out=${1#*=} ;;
        -h|--help) usage; exit 0 ;;
        *) echo "scale.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
[[ ${pes_list[*]} == none ]] && pes_list=()
for n in "${pes_list[@]}"; do
    [[ $n =~ ^[0-9]+$ && $n -ge 2 ]] || { echo "scale.sh: --pes needs integers >= 2, got '$n'" >&2; exit 2; }
done
for shape in "${nodes_list[@]}"; do
    [[ $shape =~ ^([0-9]+)x([0-9]+)$ && ${BASH_REMATCH[1]} -ge 2 && ${BASH_REMATCH[1]} -le 26 && ${BASH_REMATCH[2]} -ge 1 ]] ||
        { echo "scale.sh: --nodes needs KxP shapes with 2-26 nodes, got '$shape'" >&2; exit 2; }
done
for w in "${wireups[@]}"; do
    [[ $w =~ ^(lazy|eager|auto)$ ]] || { echo "scale.sh: --wireup needs lazy, eager or auto, got '$w'" >&2; exit 2; }
done
[[ ${#pes_list[@]} -gt 0 || ${#nodes_list[@]} -gt 0 ]] || { echo "scale.sh: nothing to run (--pes none and no --nodes)" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "scale.sh: --rounds needs a positive integer, got '$rounds'" >&2; exit 2; }
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || { echo "scale.sh: --timeout needs seconds, got '$timeout_s'" >&2; exit 2; }

run_dir=${out:-$here/runs/scale-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$run_dir"
run_dir=$(cd "$run_dir" && pwd)
exec 2> >(tee -a "$run_dir/run.log" >&2)
log() { echo "[scale.sh] $(date -u +%H:%M:%S) $*" >&2; }
now_us() { date +%s%6N; }

# ---------------------------------------------------------------- JDK 25, build, snapshot

if [[ -z ${JAVA_HOME:-} || ! -x ${JAVA_HOME:-}/bin/jfr ]] ||
    [[ $(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$JAVA_HOME/release" 2>/dev/null) -lt 25 ]]; then
    JAVA_HOME=
    for candidate in /usr/lib/jvm/*25*; do
        [[ -x $candidate/bin/jfr ]] && { JAVA_HOME=$candidate; break; }
    done
    [[ -n $JAVA_HOME ]] || { echo "scale.sh: needs a JDK 25 (with bin/jfr): set JAVA_HOME" >&2; exit 2; }
fi
export JAVA_HOME PATH=$JAVA_HOME/bin:$PATH

jshmem_modules=(shmem-api shmem-core shmem-spawn shmem-ucx shmem-launcher)
stamp=$root/shmem-bench/target/scale.sh.built
need_build=0
[[ -e $stamp ]] || need_build=1
for m in "${jshmem_modules[@]}" shmem-bench; do
    module_jar "$m" >/dev/null || need_build=1
done
if [[ $need_build -eq 0 ]] &&
    [[ -n $(find "$root/pom.xml" "$root"/shmem-*/pom.xml "$root"/shmem-*/src/main -newer "$stamp" -type f -print -quit) ]]; then
    need_build=1
fi
if [[ $need_build -eq 1 ]]; then
    modules=$(IFS=,; echo "${jshmem_modules[*]},shmem-bench")
    log "building: mvn -q -Dmaven.test.skip=true package -pl $modules -am"
    (cd "$root" && mvn -q -Dmaven.test.skip=true package -pl "$modules" -am) >&2 || { log "build failed"; exit 2; }
    touch "$stamp"
fi
# A private copy in oshrun's distribution layout (as run.sh, in a directory of its own), so that a
# rebuild elsewhere in the tree cannot change classes under a running job.
snap=$here/build/scale-jshmem
snapshot_jshmem "$snap"
cp "$(module_jar shmem-bench)" "$snap/app/shmem-bench.jar"
oshrun=$snap/bin/oshrun

# OSHMEM runs in the one-node jobs only.
if [[ ${#pes_list[@]} -gt 0 ]] && { ! command -v oshcc >/dev/null || ! command -v oshrun >/dev/null; }; then
    log "oshcc/oshrun missing: installing openmpi-bin libopenmpi-dev libucx0 (as bench/oshmem.sh does)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq openmpi-bin libopenmpi-dev libucx0 libucx-dev >&2
fi
cdir=$here/build/c
mkdir -p "$cdir"
if [[ ${#pes_list[@]} -gt 0 && ( ! -x $cdir/scale || $here/c/scale.c -nt $cdir/scale ) ]]; then
    oshcc -O2 -Wall -Wextra -o "$cdir/scale" "$here/c/scale.c"
fi
if [[ ${#pes_list[@]} -gt 0 && ( ! -f $cdir/ucxtime.so || $here/c/ucxtime.c -nt $cdir/ucxtime.so ) ]]; then
    gcc -O2 -Wall -Wextra -shared -fPIC -o "$cdir/ucxtime.so" "$here/c/ucxtime.c" -ldl
fi

# ---------------------------------------------------------------- jobs

# The init steps that the traced jshmem jobs time (JFR method tracing, JDK 25): the methods are
# listed once, in scale_report.py's TRACED, which makes the filter and checks here, before any job,
# that the snapshot's classes still have every one of them (a renamed method stops the run, naming
# it; the report fails as well if a traced step recorded no event). With lazy wire-up the endpoints
# are made at the first operation to a peer (Channel::connect, the peer's data fetched by
# UcxJob::peer), in these jobs by init's closing barrier and the probe's; WireUp::connectEveryone
# and ::checkConnections run only with eager wire-up (JSHMEM_UCX_WIREUP=eager, or auto with UCX 1.13
# or older).
[[ ${#pes_list[@]} -gt 0 ]] || trace=0
if [[ $trace -eq 1 ]]; then
    snap_jars=("$snap"/lib/*.jar)
    python3 "$here/scale_report.py" --check-methods "$(IFS=:; echo "${snap_jars[*]}")" ||
        { log "the traced methods do not match the code: fix TRACED in bench/scale_report.py (or run with --no-trace)"; exit 2; }
fi
filter=$(python3 "$here/scale_report.py" --traced-filter)

cores=$(nproc)
echo "round,impl,npes,bind,rc,t_launch_us,wall_s,cpu_s,load_avg,other_cpu" >"$run_dir/jobs.csv"
echo "round,variant,probe,impl,npes,pe,pid,t_start_us,t_main_us,t_init_us,t_ready_us,rss0,pss0,uss0,rss1,pss1,uss1,jheap0,jheap1,cpu_ready_ms,barrier_us,bcast_us,iters" >"$run_dir/probes.csv"
echo "round,npes,kind,pid,function,a,b,c,d" >"$run_dir/ucx.csv"
echo "round,npes,pid,method,caller,start_us,duration_us" >"$run_dir/jfr.csv"
echo "round,shape,wireup,probe,impl,npes,pe,pid,host,local_npes,t_launch_us,t_start_us,t_main_us,t_init_us,t_ready_us,t_end_us,rss0,uss0,rss1,pss1,uss1,rss2,pss2,uss2,cpu_ready_ms,cpu_end_ms,tcp_ready,tcp_bcast,tcp_end,tcp_launcher,peer_hosts,checks" >"$run_dir/nodes.csv"
failures=()

# job ROUND IMPL N: one job, its rows appended to the CSV files.
job() {
    local r=$1 impl=$2 n=$3 bind rc=0 t0 jd
    bind=$([[ $n -le $cores ]] && echo core || echo none)
    jd=$run_dir/jobs/r$r-$impl-$n
    rm -rf "$jd"
    mkdir -p "$jd"
    local -a cmd
    case $impl in
        jshmem|jshmem-traced)
            # JSHMEM_AOT=off for the traced jobs: classes from the AOT cache are not instrumented.
            # --oversubscribe as OSHMEM's oshrun gets it: oshrun refuses over 8 PEs a CPU without it.
            cmd=(env "JSHMEM_AOT=$([[ $impl == jshmem-traced ]] && echo off || echo "${JSHMEM_AOT:-auto}")"
                "$oshrun" -np "$n" --oversubscribe --timeout "$timeout_s" --bind-to "$bind"
                -x SHMEM_TRANSPORT=ucx -x UCX_TLS=tcp,self)
            if [[ $impl == jshmem-traced ]]; then
                mkdir -p "$jd/jfr"
                cmd+=(--jvm-opt "-XX:StartFlightRecording:jdk.MethodTrace#filter=$filter,filename=$jd/jfr/pe-%p.jfr")
            fi
            cmd+=(-cp "$snap/app/shmem-bench.jar" io.jshmem.bench.ScaleProbe --out "$jd")
            ;;
        oshmem)
            local -a bopts=(--bind-to none)
            [[ $bind == core ]] && bopts=(--bind-to core)
            cmd=(timeout "$timeout_s" oshrun --allow-run-as-root --oversubscribe
                --mca opal_common_ucx_opal_mem_hooks 0 -np "$n" "${bopts[@]}"
                -x UCX_TLS=tcp,self --mca btl tcp,self -x LD_PRELOAD="$cdir/ucxtime.so"
                "$cdir/scale" --out "$jd")
            ;;
    esac
    t0=$(now_us)
    measure_job "$jd/stats" "${cmd[@]}" >"$jd/out" 2>"$jd/err" || rc=$?
    local wall cpu load other got
    read -r wall cpu load other <"$jd/stats"
    echo "$r,$impl,$n,$bind,$rc,$t0,$wall,$cpu,$load,$other" >>"$run_dir/jobs.csv"
    got=$(cat "$jd"/pe-*.csv 2>/dev/null | grep -c '^probe,' || true)
    if [[ $rc -ne 0 || $got -ne $n ]]; then
        tail -20 "$jd/err" >&2
        log "FAILED: round $r $impl np=$n (exit $rc, $got of $n PEs reported)"
        failures+=("r$r $impl np=$n")
    else
        log "round $r $impl np=$n: ${wall%.*} s wall, $cpu CPU-s, load $load"
    fi
    local variant=${impl#jshmem-}
    [[ $variant == "$impl" ]] && variant=plain
    cat "$jd"/pe-*.csv 2>/dev/null | grep '^probe,' | sed "s/^/$r,$variant,/" >>"$run_dir/probes.csv" || true
    cat "$jd"/pe-*.csv 2>/dev/null | grep -E '^ucx(time|call|size),' | sed "s/^/$r,$n,/" >>"$run_dir/ucx.csv" || true
    if [[ $impl == jshmem-traced ]]; then
        local f
        for f in "$jd"/jfr/*.jfr; do
            [[ -f $f ]] || continue
            jfr print --json --stack-depth 1 --events jdk.MethodTrace "$f" >"${f%.jfr}.json" 2>/dev/null || true
        done
        python3 "$here/scale_report.py" --jfr-rows "$r" "$n" "$jd"/jfr/*.json >>"$run_dir/jfr.csv" || true
        rm -f "$jd"/jfr/*.jfr # large; the JSON rows are kept
    fi
}

# ---------------------------------------------------------------- jobs across containers (--nodes)

# Docker containers as nodes, as the multinode module's Cluster makes them (with the docker CLI
# here): the image jshmem-node:1 (Debian 12, libucx0), a network of their own, hostnames node-a,
# node-b, ...; the JDK and the snapshot bind-mounted read-only at the same paths (so oshrun's
# command lines are valid inside), the run directory read-write (the PEs write their rows there).
cluster_net=""
cluster_nodes=()
stop_nodes() {
    [[ ${#cluster_nodes[@]} -gt 0 ]] && { docker rm -f "${cluster_nodes[@]}" >/dev/null 2>&1 || true; }
    [[ -n $cluster_net ]] && { docker network rm "$cluster_net" >/dev/null 2>&1 || true; }
    cluster_nodes=()
    cluster_net=""
}
trap stop_nodes EXIT

# start_nodes K: K nodes up; sets cluster_nodes (container names) and cluster_gateway.
start_nodes() {
    local k=$1 i letter letters=abcdefghijklmnopqrstuvwxyz
    cluster_net=jshmem-scale-$$-$k
    docker network create "$cluster_net" >/dev/null
    for ((i = 0; i < k; i++)); do
        letter=${letters:i:1}
        cluster_nodes+=("$cluster_net-$letter")
        docker run -d --name "$cluster_net-$letter" --hostname "node-$letter" --network "$cluster_net" \
            --network-alias "node-$letter" --shm-size 1g -v "$JAVA_HOME:$JAVA_HOME:ro" -v "$snap:$snap:ro" \
            -v "$run_dir:$run_dir" "$node_image" sleep infinity >/dev/null
    done
    cluster_gateway=$(docker network inspect -f '{{(index .IPAM.Config 0).Gateway}}' "$cluster_net")
}

# node_job ROUND KxP WIREUP: one job across the nodes started for KxP, its rows appended to nodes.csv.
node_job() {
    local r=$1 shape=$2 w=$3 rc=0 t0 jd hosts="" name
    local p=${shape#*x} n=$((${shape%x*} * ${shape#*x}))
    for name in "${cluster_nodes[@]}"; do hosts+=${hosts:+,}$name:$p; done
    jd=$run_dir/jobs/r$r-nodes-$shape-$w
    rm -rf "$jd"
    mkdir -p "$jd"
    t0=$(now_us)
    measure_job "$jd/stats" env "JSHMEM_AOT=${JSHMEM_AOT:-auto}" "$oshrun" --host "$hosts" \
        --launch-agent "docker exec -i" --bootstrap-address "$cluster_gateway" --timeout "$timeout_s" \
        -x UCX_TLS=tcp,self -x "JSHMEM_UCX_WIREUP=$w" -cp "$snap/app/shmem-bench.jar" \
        io.jshmem.bench.MultiNodeProbe --launch-us "$t0" --out "$jd" >"$jd/out" 2>"$jd/err" || rc=$?
    local wall cpu load other got bad
    read -r wall cpu load other <"$jd/stats"
    echo "$r,nodes-$shape-$w,$n,none,$rc,$t0,$wall,$cpu,$load,$other" >>"$run_dir/jobs.csv"
    got=$(cat "$jd"/pe-*.csv 2>/dev/null | grep -c '^nodeprobe,' || true)
    bad=$(cat "$jd"/pe-*.csv 2>/dev/null | grep '^nodeprobe,' | grep -vc ',ok$' || true)
    if [[ $rc -ne 0 || $got -ne $n || $bad -ne 0 ]]; then
        tail -20 "$jd/err" >&2
        log "FAILED: round $r nodes $shape wire-up $w (exit $rc, $got of $n PEs reported, $bad failed checks)"
        failures+=("r$r nodes $shape $w")
    else
        log "round $r nodes $shape wire-up $w: ${wall%.*} s wall, load $load"
    fi
    cat "$jd"/pe-*.csv 2>/dev/null | grep '^nodeprobe,' | sed "s/^/$r,$shape,$w,/" >>"$run_dir/nodes.csv" || true
}

node_image=jshmem-node:1
if [[ ${#nodes_list[@]} -gt 0 ]]; then
    docker info >/dev/null 2>&1 || { log "--nodes needs a Docker daemon (multinode/setup-docker.sh as root)"; exit 2; }
    if ! docker image inspect "$node_image" >/dev/null 2>&1; then
        log "building the node image: multinode/build-image.sh --no-rdma"
        "$root/multinode/build-image.sh" --no-rdma >&2 || { log "the node image could not be built"; exit 2; }
    fi
    # oshrun makes the snapshot's start-up cache after the first job that finds none (5-20 s, inside
    # that job's wall time, and that job's PEs start without it): a 2-PE job here first, not recorded.
    if [[ ${JSHMEM_AOT:-auto} != off ]]; then
        log "warm-up job (makes the start-up cache if missing; not recorded)"
        mkdir -p "$run_dir/jobs/warm-up"
        "$oshrun" -np 2 --timeout "$timeout_s" -cp "$snap/app/shmem-bench.jar" io.jshmem.bench.MultiNodeProbe \
            --out "$run_dir/jobs/warm-up" >"$run_dir/jobs/warm-up/out" 2>&1 || log "the warm-up job failed (exit $?)"
    fi
fi

log "run directory $run_dir; PEs ${pes_list[*]:-none}; nodes ${nodes_list[*]:-none}; $rounds rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
t_start=$(date +%s)
for ((r = 1; r <= rounds; r++)); do
    for n in "${pes_list[@]}"; do
        if ((r % 2)); then order=(jshmem oshmem); else order=(oshmem jshmem); fi
        [[ $trace -eq 1 ]] && order+=(jshmem-traced)
        for impl in "${order[@]}"; do
            job "$r" "$impl" "$n"
        done
    done
    for shape in "${nodes_list[@]}"; do
        start_nodes "${shape%x*}"
        # Alternating as the one-node jobs do.
        order=("${wireups[@]}")
        if ((r % 2 == 0)); then order=(); for ((i = ${#wireups[@]} - 1; i >= 0; i--)); do order+=("${wireups[i]}"); done; fi
        for w in "${order[@]}"; do
            node_job "$r" "$shape" "$w"
        done
        stop_nodes
    done
done
elapsed=$(($(date +%s) - t_start))

nodes_ucx=""
if [[ ${#nodes_list[@]} -gt 0 ]]; then
    nodes_ucx="libucx0 $(docker run --rm "$node_image" dpkg-query -W -f '${Version}' libucx0 2>/dev/null || echo '?') in the nodes; "
fi
oshmem_text=""
if [[ ${#pes_list[@]} -gt 0 ]]; then
    oshmem_text="$(oshrun --version 2>&1 | head -1); traced jshmem jobs with JSHMEM_AOT=off; "
fi
conditions="$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), \
$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -r); ${rounds} rounds, PEs ${pes_list[*]:-none}, \
nodes ${nodes_list[*]:-none}${nodes_list[*]:+ (wire-up ${wireups[*]})}, the run took ${elapsed} s; load average at the end $(cut -d' ' -f1-3 /proc/loadavg); \
jshmem $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(java -version 2>&1 | head -1); \
UCX $(ucx_info -v 2>/dev/null | sed -n 's/^# Version //p' | head -1) here, ${nodes_ucx}${oshmem_text}\
plain jshmem jobs with JSHMEM_AOT=${JSHMEM_AOT:-auto} (the AOT cache of the jars)"
python3 "$here/scale_report.py" --dir "$run_dir" --conditions "$conditions" --strict >"$run_dir/summary.md" || failures+=("report")
log "summary: $run_dir/summary.md"
if [[ ${#failures[@]} -gt 0 ]]; then
    log "${#failures[@]} failed: ${failures[*]}"
    exit 1
fi
