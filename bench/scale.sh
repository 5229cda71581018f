#!/usr/bin/env bash
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
# Scale probe: init time, wire-up and memory per PE of jshmem and of Open MPI's OSHMEM over UCX
# (UCX_TLS=tcp,self) at several PE counts on this machine, interleaved, several rounds; then
# bench/scale_report.py writes the medians. See --help and bench/README.md ("Scale").
set -euo pipefail

usage() {
    cat <<'EOF'
usage: bench/scale.sh [--pes N,...] [--rounds R] [--no-trace] [--timeout S] [--out DIR] [--help]

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

  --pes N,...    PE counts (default 2,4,8,16,32); more PEs than cores run unbound
  --rounds R     rounds (default 3); the report takes the median over rounds
  --no-trace     skip the JFR-traced jshmem jobs
  --timeout S    per job (default 900: 32 JVMs on 2 cores with other work take minutes)
  --out DIR      the run directory (default bench/runs/scale-<UTC time>)
  -h, --help     this text

Writes into the run directory: jobs.csv (one row per job: wall, CPU-seconds, load, other busy
cores), probes.csv (one row per PE), ucx.csv (the shim's rows), jfr.csv (traced init steps),
summary.md (bench/scale_report.py) and run.log. Exit status: 0 if every job succeeded, 1 if one
failed or a traced step recorded no event (the report is still written), 2 on bad usage, a failed
build, or traced methods (bench/scale_report.py's TRACED) that the code no longer has.
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
source "$here/lib.sh"

pes_list=(2 4 8 16 32)
rounds=3
trace=1
timeout_s=900
out=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --pes) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra pes_list <<<"$2"; shift ;;
        --pes=*) IFS=, read -ra pes_list <<<"${1#*=}" ;;
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
for n in "${pes_list[@]}"; do
    [[ $n =~ ^[0-9]+$ && $n -ge 2 ]] || { echo "scale.sh: --pes needs integers >= 2, got '$n'" >&2; exit 2; }
done
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

if ! command -v oshcc >/dev/null || ! command -v oshrun >/dev/null; then
    log "oshcc/oshrun missing: installing openmpi-bin libopenmpi-dev libucx0 (as bench/oshmem.sh does)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq openmpi-bin libopenmpi-dev libucx0 libucx-dev >&2
fi
cdir=$here/build/c
mkdir -p "$cdir"
if [[ ! -x $cdir/scale || $here/c/scale.c -nt $cdir/scale ]]; then
    oshcc -O2 -Wall -Wextra -o "$cdir/scale" "$here/c/scale.c"
fi
if [[ ! -f $cdir/ucxtime.so || $here/c/ucxtime.c -nt $cdir/ucxtime.so ]]; then
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

log "run directory $run_dir; PEs ${pes_list[*]}; $rounds rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
t_start=$(date +%s)
for ((r = 1; r <= rounds; r++)); do
    for n in "${pes_list[@]}"; do
        if ((r % 2)); then order=(jshmem oshmem); else order=(oshmem jshmem); fi
        [[ $trace -eq 1 ]] && order+=(jshmem-traced)
        for impl in "${order[@]}"; do
            job "$r" "$impl" "$n"
        done
    done
done
elapsed=$(($(date +%s) - t_start))

conditions="$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), \
$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -r); ${rounds} rounds, PEs ${pes_list[*]}, \
the run took ${elapsed} s; load average at the end $(cut -d' ' -f1-3 /proc/loadavg); \
jshmem $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(java -version 2>&1 | head -1); \
$(oshrun --version 2>&1 | head -1); UCX $(ucx_info -v 2>/dev/null | sed -n 's/^# Version //p' | head -1); \
plain jshmem jobs with JSHMEM_AOT=${JSHMEM_AOT:-auto} (the AOT cache of the jars), traced ones with it off"
python3 "$here/scale_report.py" --dir "$run_dir" --conditions "$conditions" --strict >"$run_dir/summary.md" || failures+=("report")
log "summary: $run_dir/summary.md"
if [[ ${#failures[@]} -gt 0 ]]; then
    log "${#failures[@]} failed: ${failures[*]}"
    exit 1
fi
