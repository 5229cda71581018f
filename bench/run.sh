#!/usr/bin/env bash
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
# Runs the jshmem benchmarks (shmem-bench, through bin/oshrun) and the same measurements in C on
# Open MPI's OSHMEM (bench/oshmem.sh), alternating program by program, then writes
# results.csv, summary.md and plots into a run directory (bench/runs/...). See --help and bench/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: bench/run.sh [--quick] [--rounds R] [--pes N] [--transport T] [--prog P]
                    [--bind core|none] [--out DIR] [--publish] [--inject-error] [--help]

Builds what is missing or stale (mvn package of the modules it uses, tests skipped) and copies
bin/ and the jars to bench/build/jshmem, so that work elsewhere in the tree cannot disturb the
run. Then, in each round, for each PE count and transport runs each benchmark program (rma, amo,
coll, pingpong, steady) on jshmem (through that copy of bin/oshrun) and right after it on OSHMEM
(bench/oshmem.sh), OSHMEM first in even rounds; then the start-up time of a 4-PE hello world for
both (7 runs each, interleaved), and finally Report. Ratios are the median over the rounds of each round's ratio: this
machine changes speed between jobs (a 2-PE ping-pong flips between ~0.12 and ~0.4 us for both
implementations), and only pairs measured back to back cancel that out.

  --quick          short repetitions (3 of ~2 ms each): a smoke run, one round by default; its
                   summary lists the values but no ratios and no targets (too few repetitions
                   to judge)
  --rounds R       rounds (default 3; 1 with --quick); a full run takes ~13 min per round
  --pes N          PE count; repeat or comma-separate (default: 2,4)
  --transport T    shm | ucx-tcp; repeat or comma-separate (default: both)
  --prog P         rma | amo | coll | pingpong | steady; repeat or comma-separate (default:
                   all five). The start-up measurement runs only with all five (a partial
                   run cannot be published)
  --bind B         core | none: both implementations bound to cores, or both unbound
                   (default: core when PEs <= cores, none otherwise). jshmem gets
                   oshrun --bind-to B if its oshrun has that option; if it has not, both
                   run unbound. The CSV and summary record which.
  --out DIR        the run directory (default: bench/runs/<UTC time>[-quick])
  --publish        also copy the results to bench/results/ (latest.csv, summary.md, *.png)
                   if every job succeeded
  --inject-error   corrupt the moved data once in every program: the run must fail
  -h, --help       this text

Results, in the run directory (bench/runs/latest links to the newest):
  results.csv  impl,transport,pes,op,bytes,metric,value,unit,round (rows of both impls, and per
               job: wall_s, cpu_s, load_avg, other_cpu, bind_core)
  summary.md   the targets (judged on each row's per-call p50 and p99, never the loop mean),
               every row with the jshmem/oshmem ratio, the jobs
  *.png        jshmem and OSHMEM per chart: RMA latency and bandwidth against message size, collectives
               (alone and with the following barrier), barrier and ping-pong p50/p99, start-up wall and
               CPU time, time to steady state (bench/README.md lists every file)
  run.log      what the run printed
bench/results/ is left alone unless --publish is given.

Exit status: 0 if every benchmark ran and verified its data, 1 otherwise (the report is still
written from what was measured), 2 on bad usage or a failed build.
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
source "$here/lib.sh"

quick=0
rounds=""
pes_list=()
transports=()
prog_list=()
bind=""
out=""
publish=0
inject=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) quick=1 ;;
        --rounds) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; rounds=$2; shift ;;
        --rounds=*) rounds=${1#*=} ;;
        --pes) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra v <<<"$2"; pes_list+=("${v[@]}"); shift ;;
        --pes=*) IFS=, read -ra v <<<"${1#*=}"; pes_list+=("${v[@]}") ;;
        --transport) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra v <<<"$2"; transports+=("${v[@]}"); shift ;;
        --transport=*) IFS=, read -ra v <<<"${1#*=}"; transports+=("${v[@]}") ;;
        --prog) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra v <<<"$2"; prog_list+=("${v[@]}"); shift ;;
        --prog=*) IFS=, read -ra v <<<"${1#*=}"; prog_list+=("${v[@]}") ;;
        --bind) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; bind=$2; shift ;;
        --bind=*) bind=${1#*=} ;;
        --out) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; out=$2; shift ;;
        --out=*) out=${1#*=} ;;
        --publish) publish=1 ;;
        --inject-error) inject=(--inject-error) ;;
        -h|--help) usage; exit 0 ;;
        *) echo "run.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
[[ -n $rounds ]] || rounds=$([[ $quick -eq 1 ]] && echo 1 || echo 3)
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --rounds needs a positive integer, got '$rounds'" >&2; exit 2; }
[[ ${#pes_list[@]} -gt 0 ]] || pes_list=(2 4)
for n in "${pes_list[@]}"; do
    [[ $n =~ ^[0-9]+$ && $n -ge 2 ]] || { echo "run.sh: --pes needs an integer >= 2, got '$n'" >&2; exit 2; }
done
# Transports: shared memory, and UCX over TCP between PEs of this machine (UCX_TLS=tcp,self on both
# sides; jshmem with SHMEM_TRANSPORT=ucx so that every peer goes through UCX).
[[ ${#transports[@]} -gt 0 ]] || transports=(shm ucx-tcp)
for t in "${transports[@]}"; do
    [[ $t == shm || $t == ucx-tcp ]] || { echo "run.sh: unknown transport '$t' (shm|ucx-tcp)" >&2; exit 2; }
done
[[ -z $bind || $bind == core || $bind == none ]] || { echo "run.sh: --bind core|none, got '$bind'" >&2; exit 2; }
# The benchmark programs, in run order: C name (bench/c/NAME.c, job_NAME) and Java main class.
progs=(rma amo coll pingpong steady)
declare -A java_main=([rma]=RmaBench [amo]=AmoBench [coll]=CollBench [pingpong]=PingPongBench [steady]=SteadyBench)
all_progs=1
if [[ ${#prog_list[@]} -gt 0 ]]; then
    for p in "${prog_list[@]}"; do
        [[ -n ${java_main[$p]:-} ]] || { echo "run.sh: unknown program '$p' (${progs[*]})" >&2; exit 2; }
    done
    # Keep the run order of progs, whatever order they were given in.
    selected=()
    for p in "${progs[@]}"; do [[ " ${prog_list[*]} " == *" $p "* ]] && selected+=("$p"); done
    [[ ${#selected[@]} -eq ${#progs[@]} ]] || all_progs=0
    progs=("${selected[@]}")
    [[ $all_progs -eq 1 || $publish -eq 0 ]] || { echo "run.sh: --publish needs all five programs (no --prog)" >&2; exit 2; }
fi

# The run directory; everything of this run goes there, bench/results/ only with --publish.
results=$here/results
suffix=; [[ $quick -eq 1 ]] && suffix=-quick
run_dir=${out:-$here/runs/$(date -u +%Y%m%d-%H%M%S)$suffix}
mkdir -p "$run_dir"
run_dir=$(cd "$run_dir" && pwd)
csv=$run_dir/results.csv
exec 2> >(tee -a "$run_dir/run.log" >&2)
if [[ -z $out ]]; then
    ln -sfn "$(basename "$run_dir")" "$here/runs/latest"
fi

# Sets topts to the oshrun options that make jshmem use transport $1.
jshmem_transport_opts() {
    case $1 in
        shm) topts=() ;;
        ucx-tcp) topts=(-x SHMEM_TRANSPORT=ucx -x UCX_TLS=tcp,self) ;;
        *) echo "run.sh: jshmem has no transport '$1' yet" >&2; exit 2 ;;
    esac
}

log() { echo "[run.sh] $*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }

# ---------------------------------------------------------------- JDK 25

# Whether $1 is a JDK of version 25 or newer (read from its release file: no JVM start).
is_jdk25() {
    local v=
    [[ -r $1/release ]] && v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release")
    [[ -x $1/bin/java && ${v:-0} -ge 25 ]]
}
if [[ -z ${JAVA_HOME:-} ]] || ! is_jdk25 "$JAVA_HOME"; then
    JAVA_HOME=
    for candidate in /usr/lib/jvm/*25*; do
        if is_jdk25 "$candidate"; then
            JAVA_HOME=$candidate
            break
        fi
    done
    [[ -n $JAVA_HOME ]] || { echo "run.sh: needs JDK 25 or newer: set JAVA_HOME" >&2; exit 2; }
fi
export JAVA_HOME PATH=$JAVA_HOME/bin:$PATH

# ---------------------------------------------------------------- build

t_start=$(now)
jshmem_modules=(shmem-api shmem-core shmem-spawn shmem-ucx shmem-launcher)
stamp=$root/shmem-bench/target/run.sh.built # written after a successful build
need_build=0
[[ -e $stamp && -e $root/shmem-bench/target/runtime.classpath ]] || need_build=1
for m in "${jshmem_modules[@]}" shmem-examples shmem-bench; do
    module_jar "$m" >/dev/null || need_build=1
done
if [[ $need_build -eq 0 ]] &&
    [[ -n $(find "$root/pom.xml" "$root"/shmem-*/pom.xml "$root"/shmem-*/src/main -newer "$stamp" -type f -print -quit) ]]; then
    need_build=1
fi
# Only the modules the runs use (bin/oshrun's runtime, the examples' Hello, the benchmarks), and
# without compiling tests: a module or test being edited elsewhere in the tree cannot break them.
modules=$(IFS=,; echo "${jshmem_modules[*]},shmem-examples,shmem-bench")
if [[ $need_build -eq 1 ]]; then
    # package, not install: the run uses the jars in target/, and ~/.m2 stays as it was.
    log "building: mvn -q -Dmaven.test.skip=true package -pl $modules -am"
    (cd "$root" && mvn -q -Dmaven.test.skip=true package -pl "$modules" -am) >&2 || { log "build failed"; exit 2; }
    touch "$stamp"
fi

# Every job of a run uses one private copy of jshmem, in oshrun's distribution layout (bin/ and
# lib/*.jar), plus the benchmark and example jars: a `mvn clean` or rebuild elsewhere in the tree
# cannot pull classes from under a running benchmark, nor mix two builds in one run.
snap=$here/build/jshmem
snapshot_jshmem "$snap"
bench_jar=$snap/app/shmem-bench.jar
hello_jar=$snap/app/shmem-examples.jar
cp "$(module_jar shmem-bench)" "$bench_jar"
cp "$(module_jar shmem-examples)" "$hello_jar"
report_cp=$bench_jar:$(cat "$root/shmem-bench/target/runtime.classpath")
oshrun=$snap/bin/oshrun
# The same jshmem in the source tree's layout (bin/ beside each module's target/classes and jar, as
# the README's `mvn install` leaves them), for the start-up measurement of that layout.
snap_src=$here/build/jshmem-src
snapshot_source_tree "$snap_src"
oshrun_src=$snap_src/bin/oshrun
# A fresh copy of the jars has no ahead-of-time cache yet: oshrun makes one after the first job
# (a training job of several seconds). Made here, untimed, so that no measured job pays for it.
for o in "$oshrun" "$oshrun_src"; do
    "$o" -np 2 -cp "$hello_jar" io.jshmem.examples.Hello >/dev/null 2>&1 || log "warning: the warm-up hello world failed ($o)"
done

# ---------------------------------------------------------------- benchmarks

# Binding: both implementations bound to cores or both unbound. jshmem's oshrun gets --bind-to
# only if it has the option; without it jshmem runs unbound, and so must OSHMEM.
cores=$(nproc)
jshmem_binds=0
if "$oshrun" --help 2>/dev/null | grep -q -- '--bind-to'; then
    jshmem_binds=1
fi
# Sets bind_n to the binding used for N PEs: --bind, else core when N <= cores, else none.
bind_for() {
    if [[ -n $bind ]]; then bind_n=$bind; elif [[ $1 -le $cores ]]; then bind_n=core; else bind_n=none; fi
    if [[ $jshmem_binds -eq 0 && $bind_n == core ]]; then
        log "jshmem's oshrun has no --bind-to: both implementations run unbound at $1 PEs"
        bind_n=none
    fi
}

# 2 cores: anything else running skews the numbers badly, for both implementations.
load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" 'BEGIN{exit !(l > 0.5)}'; then
    log "warning: load average is $load; other processes will perturb the results"
fi

echo "impl,transport,pes,op,bytes,metric,value,unit,round" >"$csv"
round=1 # the round being run; every row gets it (add_rows)

# add_rows FILE: appends FILE's rows to the CSV with the current round, then empties FILE.
add_rows() {
    [[ -e $1 ]] && sed "s/\$/,$round/" "$1" >>"$csv"
    rm -f "$1"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=()
mode_args=("${inject[@]}")
[[ $quick -eq 1 ]] && mode_args+=(--quick)
# Per job; a quick job took 2-16 s (jshmem) and up to 95 s (OSHMEM's rma and coll, which stall in
# their barriers) at 2 PEs under a load average of 27, a full one up to 304 s (OSHMEM's coll, 2 PEs,
# same load); more over ucx-tcp. A hung job must not eat the run's time budget.
timeout_s=$([[ $quick -eq 1 ]] && echo 300 || echo 1200)

# run_jshmem N TRANSPORT PROG BIND: one benchmark program as an N-PE jshmem job.
run_jshmem() {
    local n=$1 t=$2 prog=$3 b=$4 rc=0
    local -a topts bopts=()
    jshmem_transport_opts "$t"
    [[ $jshmem_binds -eq 1 ]] && bopts=(--bind-to "$b")
    measure_job "$tmp/stats" "$oshrun" -np "$n" --timeout "$timeout_s" "${bopts[@]}" "${topts[@]}" \
        -cp "$bench_jar" "io.jshmem.bench.${java_main[$prog]}" --transport "$t" "${mode_args[@]}" \
        >"$tmp/out" 2>"$tmp/err" || rc=$?
    job_output jshmem "$t" "$n" "$prog" "$b" "$tmp" >"$tmp/rows"
    add_rows "$tmp/rows"
    if [[ $rc -ne 0 ]]; then
        cat "$tmp/err" >&2
        log "FAILED: jshmem $prog np=$n $t round $round (exit $rc)"
        failures+=("jshmem $prog np=$n $t round $round")
    else
        log "jshmem $prog np=$n $t round $round: $(cut -d' ' -f1 "$tmp/stats") s"
    fi
}

# run_oshmem N TRANSPORT BIND WHAT oshmem.sh-ARGS...: WHAT names the job(s) in failure reports.
run_oshmem() {
    local n=$1 t=$2 b=$3 what=$4
    shift 4
    rm -f "$tmp/orows"
    "$here/oshmem.sh" --pes "$n" --transport "$t" --bind "$b" --out "$tmp/orows" "${mode_args[@]}" "$@" ||
        failures+=("oshmem $what np=$n $t round $round")
    add_rows "$tmp/orows"
}

# Start-up: 7 runs of a 4-PE hello world (launch, init, finalize) each for jshmem (from the
# distribution's layout, and from the source tree's: op startup_src) and OSHMEM, interleaved
# (alternately who goes first, as the rounds do), so that all meet the same machine; rows: the
# median wall time in us (lat_us), the median and p99 of the wall times and of the CPU-seconds
# (lat_p50_us, lat_p99_us, cpu_p50_s, cpu_p99_s: the targets judge these), and the job rows (the
# median of each column). OSHMEM's runs are the other side of both comparisons.
startup_runs=7
run_jshmem_startup() {
    local i b o sample
    local -a jsamples=() ssamples=() osamples=() bopts=() jstats=() sstats=() ostats=()
    bind_for 4
    b=$bind_n
    [[ $jshmem_binds -eq 1 ]] && bopts=(--bind-to "$b")
    for ((i = 1; i <= startup_runs; i++)); do
        for o in $( ((i % 2 == 1)) && echo "j s o" || echo "o s j"); do
            if [[ $o == j || $o == s ]]; then
                if ! sample=$(measure_hello "$tmp/${o}stats$i" 'Hello from PE' \
                    "$([[ $o == j ]] && echo "$oshrun" || echo "$oshrun_src")" -np 4 --timeout 120 \
                    "${bopts[@]}" -cp "$hello_jar" io.jshmem.examples.Hello); then
                    log "FAILED: jshmem startup run $i ($([[ $o == j ]] && echo distribution || echo source tree) layout)"
                    failures+=("jshmem startup")
                    return
                fi
                if [[ $o == j ]]; then
                    jsamples+=("$sample")
                    jstats+=("$tmp/jstats$i")
                else
                    ssamples+=("$sample")
                    sstats+=("$tmp/sstats$i")
                fi
            else
                rm -f "$tmp/orows"
                if ! "$here/oshmem.sh" --pes 4 --transport shm --bind "$b" --out "$tmp/orows" --startup-only \
                    --startup-runs 1; then
                    failures+=("oshmem startup")
                    return
                fi
                # Its one run: the lat_us row, and the job rows as measure_job's stats line.
                osamples+=("$(awk -F, '$4 == "startup" && $6 == "lat_us" { printf "%.0f", $7 }' "$tmp/orows")")
                awk -F, '$4 == "job_startup" { v[$6] = $7 }
                    END { print v["wall_s"], v["cpu_s"], v["load_avg"], v["other_cpu"] }' "$tmp/orows" >"$tmp/ostats$i"
                ostats+=("$tmp/ostats$i")
            fi
        done
    done
    log "startup samples (us), jshmem: ${jsamples[*]}; jshmem (source tree): ${ssamples[*]}; OSHMEM: ${osamples[*]}"
    {
        echo "jshmem,shm,4,startup,0,lat_us,$(median_of "${jsamples[@]}").000,us"
        echo "oshmem,shm,4,startup,0,lat_us,$(median_of "${osamples[@]}").000,us"
        echo "jshmem,shm,4,startup_src,0,lat_us,$(median_of "${ssamples[@]}").000,us"
        echo "oshmem,shm,4,startup_src,0,lat_us,$(median_of "${osamples[@]}").000,us"
        startup_quantile_rows jshmem startup "${jstats[@]}"
        startup_quantile_rows jshmem startup_src "${sstats[@]}"
        startup_quantile_rows oshmem startup "${ostats[@]}"
        startup_quantile_rows oshmem startup_src "${ostats[@]}"
    } >"$tmp/rows"
    median_stats "${jstats[@]}" >"$tmp/stats"
    job_rows jshmem shm 4 startup "$b" "$tmp/stats" >>"$tmp/rows"
    median_stats "${sstats[@]}" >"$tmp/stats"
    job_rows jshmem shm 4 startup_src "$b" "$tmp/stats" >>"$tmp/rows"
    median_stats "${ostats[@]}" >"$tmp/stats"
    job_rows oshmem shm 4 startup "$b" "$tmp/stats" >>"$tmp/rows"
    job_rows oshmem shm 4 startup_src "$b" "$tmp/stats" >>"$tmp/rows"
    add_rows "$tmp/rows"
}

binds=()
for n in "${pes_list[@]}"; do
    bind_for "$n"
    binds+=("$n PEs: $([[ $bind_n == core ]] && echo bound to cores || echo unbound)")
done
for ((round = 1; round <= rounds; round++)); do
    log "round $round of $rounds"
    for n in "${pes_list[@]}"; do
        bind_for "$n"
        for t in "${transports[@]}"; do
            for prog in "${progs[@]}"; do
                # Alternate who goes first, so that neither side always runs on a warmer machine.
                if ((round % 2 == 1)); then
                    run_jshmem "$n" "$t" "$prog" "$bind_n"
                    run_oshmem "$n" "$t" "$bind_n" "$prog" --prog "$prog" --no-startup
                else
                    run_oshmem "$n" "$t" "$bind_n" "$prog" --prog "$prog" --no-startup
                    run_jshmem "$n" "$t" "$prog" "$bind_n"
                fi
            done
        done
    done
done
# Start-up is a shared-memory measurement: only when shm is among the transports (7 interleaved
# runs each, recorded as round 1).
round=1
if [[ " ${transports[*]} " == *" shm "* && $all_progs -eq 1 ]]; then
    run_jshmem_startup
fi

# ---------------------------------------------------------------- report

elapsed=$(since "$t_start")
note="$( [[ $quick -eq 1 ]] && echo "Quick run (--quick: 3 repetitions of ~2 ms per row; expect noise)" ||
    echo "Full run (9 repetitions of ~30 ms per row)"), $rounds round(s), PEs ${pes_list[*]}, transports ${transports[*]}, programs ${progs[*]},
$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)),
load average at start $load, the run took ${elapsed} s. Binding (both implementations alike): $(
    IFS=';'; echo "${binds[*]}" | sed 's/;/; /g'). Median of the repetitions; each repetition verified
the data it moved."
if awk -v l="$load" 'BEGIN{exit !(l > 0.5)}'; then
    note+="

**Warning**: other processes were running (load average $load at start); on this machine that
perturbs both implementations, jshmem's waits (barrier) most."
fi
report_args=()
[[ $quick -eq 1 ]] && report_args=(--quick) # values only: no ratios or targets from 3 short repetitions
"$JAVA_HOME/bin/java" -Djava.awt.headless=true \
    -cp "$report_cp" \
    io.jshmem.bench.report.Report --csv "$csv" --out "$run_dir" --note "$note" "${report_args[@]}" >&2 ||
    failures+=("report")

if [[ $publish -eq 1 && ${#failures[@]} -gt 0 ]]; then
    log "not published: a run with failures does not replace $results"
elif [[ $publish -eq 1 ]]; then
    mkdir -p "$results"
    rm -f "$results"/*.png "$results/summary.md"
    cp "$csv" "$results/latest.csv"
    cp "$run_dir"/summary.md "$run_dir"/*.png "$results/" 2>/dev/null || true
    log "published to $results"
fi
log "results: $run_dir (results.csv, summary.md, *.png, run.log; total $(since "$t_start") s)"
if [[ ${#failures[@]} -gt 0 ]]; then
    log "${#failures[@]} failed: ${failures[*]}"
    exit 1
fi
