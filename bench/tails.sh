#!/usr/bin/env bash
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
#
# Per-call tails of barrier, broadcast and sum where PEs outnumber cores: jshmem
# (shmem-bench's TailsBench) against OSHMEM (bench/c/tails.c), interleaved.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: bench/tails.sh [--pes N] [--transport T] [--rounds R] [--warm W] [--calls M] [--out DIR]
                      [--help]

The waiting collectives' per-call p50 and p99 with more PEs than cores, where bench/run.sh's
calibrated programs take too long on OSHMEM's side (its PEs poll without sleeping: its coll
program at 8 PEs over TCP on 2 cores ran past 20 minutes). In each round, for each PE count,
runs jshmem's TailsBench (a private copy of bin/oshrun and the jars, built with mvn package
when missing or stale) and OSHMEM's tails (bench/c/tails.c, built with oshcc), OSHMEM first in
even rounds. Each program makes, per operation (barrier_all; broadcast 8 B from PE 0 and a sum
of one long, alone with an untimed barrier_all between calls as coll.c, and each with the
barrier_all after it timed together), W calls, then M more, every call timed on every PE and
all PEs' times pooled after both: the rows lat_p50_us/lat_p99_us are the M calls after the warm-up
(the steady state), cold_p50_us/cold_p99_us the W calls of the warm-up (for barrier_all, the first
calls after init: where a JVM's interpreter and JIT compilation land). Both sides make the same
number of calls; nothing is calibrated by time.

  --pes N          PE count; repeat or comma-separate (default: 8,16)
  --transport T    ucx-tcp (default: every PE through UCX over TCP, as run.sh) or shm
  --rounds R       rounds (default 3)
  --warm W         warm-up calls per operation (default 30000: past the JIT's C2 thresholds
                   under oshrun's CompileThresholdScaling=2, about 10,000-30,000 calls of a
                   path; 10,000 put barrier_all's C2 compilation into the timed calls)
  --calls M        timed calls per operation after the warm-up (default 3000)
  --out DIR        the run directory (default: bench/runs/tails-<UTC time>)
  -h, --help       this text

Results, in the run directory: results.csv (impl,transport,pes,op,bytes,metric,value,unit,round),
summary.md (per row: both sides' medians over the rounds, the median and range of the rounds'
jshmem/oshmem ratios; the jobs' wall time and CPU-seconds, user + system of the launcher and all
PEs; ends with one line per row, TAIL <op> <pes> <transport> <metric> <ratio>, the jobs' as TAIL
job <pes> <transport> wall_s|cpu_s <ratio>), run.log. Ratios below 1: jshmem faster. Exit
status: 0 if every job ran and verified its data, 1 otherwise, 2 on bad usage or a failed build.
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
source "$here/lib.sh"

pes_list=()
transport=ucx-tcp
rounds=3
warm=30000
calls=3000
out=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --pes) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra v <<<"$2"; pes_list+=("${v[@]}"); shift ;;
        --pes=*) IFS=, read -ra v <<<"${1#*=}"; pes_list+=("${v[@]}") ;;
        --transport) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; transport=$2; shift ;;
        --transport=*) transport=${1#*=} ;;
        --rounds) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; rounds=$2; shift ;;
        --rounds=*) rounds=${1#*=} ;;
        --warm) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; warm=$2; shift ;;
        --warm=*) warm=${1#*=} ;;
        --calls) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; calls=$2; shift ;;
        --calls=*) calls=${1#*=} ;;
        --out) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; out=$2; shift ;;
        --out=*) out=${1#*=} ;;
        -h|--help) usage; exit 0 ;;
        *) echo "tails.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
[[ ${#pes_list[@]} -gt 0 ]] || pes_list=(8 16)
for n in "${pes_list[@]}"; do
    [[ $n =~ ^[0-9]+$ && $n -ge 2 ]] || { echo "tails.sh: --pes needs an integer >= 2, got '$n'" >&2; exit 2; }
done
[[ $transport == ucx-tcp || $transport == shm ]] || { echo "tails.sh: --transport ucx-tcp|shm, got '$transport'" >&2; exit 2; }
for v in rounds warm calls; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "tails.sh: --$v needs a positive integer, got '${!v}'" >&2; exit 2; }
done
command -v oshcc >/dev/null && command -v oshrun >/dev/null ||
    { echo "tails.sh: needs Open MPI's oshcc and oshrun (apt-get install openmpi-bin libopenmpi-dev)" >&2; exit 2; }
select_jdk25 tails.sh

run_dir=${out:-$here/runs/tails-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$run_dir"
run_dir=$(cd "$run_dir" && pwd)
csv=$run_dir/results.csv
exec 2> >(tee -a "$run_dir/run.log" >&2)
log() { echo "[tails.sh] $*" >&2; }
die() { log "$*"; exit 2; }

# ---------------------------------------------------------------- build both sides

jshmem_modules=(shmem-api shmem-core shmem-spawn shmem-ucx shmem-launcher)
need_build=0
for m in "${jshmem_modules[@]}" shmem-bench; do
    module_jar "$m" >/dev/null || need_build=1
done
if [[ $need_build -eq 0 ]]; then
    oldest_jar=$(ls -t "$(module_jar shmem-bench)" "$(module_jar shmem-core)" "$(module_jar shmem-ucx)" | tail -1)
    [[ -z $(find "$root"/shmem-*/src/main -newer "$oldest_jar" -type f -print -quit) ]] || need_build=1
fi
if [[ $need_build -eq 1 ]]; then
    modules=$(IFS=,; echo "${jshmem_modules[*]},shmem-bench")
    log "building: mvn -q -Dmaven.test.skip=true package -pl $modules -am"
    (cd "$root" && mvn -q -Dmaven.test.skip=true package -pl "$modules" -am) >&2 || die "build failed"
fi
snap=$here/build/tails
snapshot_jshmem "$snap"
cp "$(module_jar shmem-bench)" "$snap/app/shmem-bench.jar"
c_exe=$here/build/c/tails
mkdir -p "$here/build/c"
if [[ ! -x $c_exe || $here/c/tails.c -nt $c_exe || $here/c/bench_common.h -nt $c_exe ]]; then
    oshcc -O2 -Wall -Wextra -o "$c_exe" "$here/c/tails.c" || die "oshcc failed"
    log "built $c_exe"
fi

# ---------------------------------------------------------------- the rounds

cores=$(nproc)
osh=(oshrun --oversubscribe --mca opal_common_ucx_opal_mem_hooks 0)
[[ $(id -u) -ne 0 ]] || osh+=(--allow-run-as-root)
timeout_s=1800
failures=()
echo "impl,transport,pes,op,bytes,metric,value,unit,round" >"$csv"

# run_side j|o N ROUND: one job; its rows, with the round, go to the CSV.
run_side() {
    local who=$1 n=$2 r=$3 rc=0 impl bind=none
    local -a cmd
    [[ $n -le $cores ]] && bind=core
    if [[ $who == j ]]; then
        cmd=(timeout "$timeout_s" "$snap/bin/oshrun" -q -np "$n" --bind-to "$bind")
        [[ $transport == ucx-tcp ]] && cmd+=(-x SHMEM_TRANSPORT=ucx -x UCX_TLS=tcp,self)
        cmd+=(-cp "$snap/app/shmem-bench.jar" io.jshmem.bench.TailsBench)
    else
        cmd=(timeout "$timeout_s" "${osh[@]}" -np "$n" --bind-to "$bind")
        [[ $transport == ucx-tcp ]] && cmd+=(-x UCX_TLS=tcp,self --mca btl tcp,self)
        cmd+=("$c_exe")
    fi
    cmd+=(--transport "$transport" --warm "$warm" --calls "$calls")
    impl=$([[ $who == j ]] && echo jshmem || echo oshmem)
    measure_job "$run_dir/stats" "${cmd[@]}" >"$run_dir/out" 2>"$run_dir/err" || rc=$?
    { grep -E '^(jshmem|oshmem),' "$run_dir/out" || true; job_rows "$impl" "$transport" "$n" tails "$bind" "$run_dir/stats"; } |
        sed "s/\$/,$r/" >>"$csv"
    if [[ $rc -ne 0 ]]; then
        cat "$run_dir/err" >&2
        failures+=("$impl np=$n round $r (exit $rc)")
        log "FAILED: ${failures[-1]}"
    else
        log "$impl np=$n round $r: $(awk '{ printf "%.1f s, %.1f CPU-s", $1, $2 }' "$run_dir/stats")"
    fi
}

# oshrun makes the snapshot's start-up cache after the first job that finds none (5-20 s, inside
# that job's wall time and CPU-seconds, and its PEs start without it): a short job first, not recorded.
if ! "$snap/bin/oshrun" -q -np 2 --timeout 300 -cp "$snap/app/shmem-bench.jar" io.jshmem.bench.TailsBench \
    --warm 10 --calls 10 >/dev/null 2>"$run_dir/err"; then
    cat "$run_dir/err" >&2
    die "the warm-up job (jshmem, 2 PEs) failed"
fi

load=$(cut -d' ' -f1 /proc/loadavg)
t_start=$(date +%s)
for ((round = 1; round <= rounds; round++)); do
    for n in "${pes_list[@]}"; do
        if ((round % 2 == 1)); then
            run_side j "$n" "$round"; run_side o "$n" "$round"
        else
            run_side o "$n" "$round"; run_side j "$n" "$round"
        fi
    done
done
rm -f "$run_dir/out" "$run_dir/err" "$run_dir/stats"

# ---------------------------------------------------------------- summary

# summarize JOBS FORMAT: rows "op|PEs|metric|jshmem|oshmem|ratio (min-max)|ratio", sorted by PEs,
# op, metric; of the per-call rows (JOBS 0) or of the jobs' wall and CPU seconds (JOBS 1), values in FORMAT.
summarize() {
    awk -F, -v jobs="$1" -v fmt="$2" 'NR > 1 && ($4 ~ /^job_/) == jobs && (!jobs || $6 == "wall_s" || $6 == "cpu_s") {
        v[$1 FS $3 FS $4 FS $6 FS $9] = $7; keys[$3 FS $4 FS $6] = 1; r[$9] = 1 }
    function med(a, n,   i, j, t) {
        for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    END {
        for (k in keys) {
            split(k, f, FS); nj = no = nr = 0
            for (round in r) {
                j = v["jshmem" FS k FS round]; o = v["oshmem" FS k FS round]
                if (j != "") js[++nj] = j
                if (o != "") os[++no] = o
                if (j != "" && o != "" && o > 0) rs[++nr] = j / o
            }
            if (nr == 0) continue
            lo = rs[1]; hi = rs[1]; for (i = 2; i <= nr; i++) { if (rs[i] < lo) lo = rs[i]; if (rs[i] > hi) hi = rs[i] }
            m = med(rs, nr)
            printf "%s|%s|%s|" fmt "|" fmt "|%.2f (%.2f-%.2f)|%.3f\n", f[2], f[1], f[3], med(js, nj), med(os, no), m, lo, hi, m
        }
    }' "$csv" | sort -t'|' -k2,2n -k1,1 -k3,3
}
rows=$(summarize 0 %.1f)
job_summary=$(summarize 1 %.2f)
{
    echo "# Tails with more PEs than cores: jshmem vs OSHMEM"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $cores cores, transport $transport, PEs ${pes_list[*]}, $rounds round(s),"
    echo "$warm warm-up and $calls timed calls per operation, every call timed on every PE, all PEs pooled;"
    echo "load average at start $load, the run took $(($(date +%s) - t_start)) s. Values: medians over the rounds;"
    echo "ratio: median (min-max) of the rounds' jshmem/oshmem ratios (below 1: jshmem faster)."
    echo
    echo "| op | PEs | metric | jshmem us | oshmem us | jshmem/oshmem |"
    echo "|---|---:|---|---:|---:|---|"
    [[ -z $rows ]] || awk -F'|' '{ printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }' <<<"$rows"
    echo
    echo "Whole jobs (launch to exit, both sides making the same calls): wall time and CPU-seconds,"
    echo "user + system of the launcher and every PE; OSHMEM's PEs poll while they wait, jshmem's sleep."
    echo
    echo "| PEs | metric | jshmem s | oshmem s | jshmem/oshmem |"
    echo "|---:|---|---:|---:|---|"
    [[ -z $job_summary ]] || awk -F'|' '{ printf "| %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6 }' <<<"$job_summary"
    echo
    echo '```'
    [[ -z $rows ]] || awk -F'|' -v t="$transport" '{ print "TAIL", $1, $2, t, $3, $7 }' <<<"$rows"
    [[ -z $job_summary ]] || awk -F'|' -v t="$transport" '{ print "TAIL job", $2, t, $3, $7 }' <<<"$job_summary"
    echo '```'
} >"$run_dir/summary.md.tmp"
mv "$run_dir/summary.md.tmp" "$run_dir/summary.md"
log "results: $run_dir (results.csv, summary.md, run.log)"
if [[ ${#failures[@]} -gt 0 ]]; then
    log "${#failures[@]} failed: ${failures[*]}"
    exit 1
fi
