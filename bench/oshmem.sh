#!/usr/bin/env bash
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
# Runs the C OpenSHMEM benchmarks (bench/c/) on Open MPI's OSHMEM and emits
# CSV rows: impl,transport,pes,op,bytes,metric,value,unit (no header).
# See --help. Progress goes to stderr, so stdout carries only CSV.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: bench/oshmem.sh [--quick] [--pes N] [--transport shm|ucx-tcp] [--prog P]
                       [--bind core|none] [--out FILE] [--no-startup] [--inject-error]

Compiles bench/c/*.c with oshcc -O2 into bench/build/c/ (when a source is
newer than its binary) and runs them with oshrun, appending CSV rows
(impl,transport,pes,op,bytes,metric,value,unit) to FILE (default: stdout).
Installs openmpi-bin/libopenmpi-dev/libucx0 with apt-get if oshcc or shmem.h is missing.

  --quick            short calibration target and 3 repetitions (smoke run)
  --pes N            PE count; repeat or comma-separate (default: 2,4)
  --transport T      shm | ucx-tcp; repeat or comma-separate (default: both)
                       shm:     OSHMEM defaults (UCX shared memory; MPI-level
                                collectives over the vader shared-memory BTL)
                       ucx-tcp: -x UCX_TLS=tcp,self and --mca btl tcp,self,
                                so both RMA/AMO and collectives use TCP
  --prog P           rma | amo | coll | pingpong | steady; repeat or
                     comma-separate (default: all five)
  --bind B           core | none: oshrun --bind-to core (core:overload-allowed
                     when PEs > cores) or --bind-to none. Default: core when
                     PEs <= cores, none otherwise (Open MPI's own default binds
                     2 PEs to cores; this makes the choice explicit)
  --out FILE         append rows to FILE instead of writing to stdout
  --no-startup       skip the start-up measurement
  --startup-only     only the start-up measurement
  --startup-runs N   runs of the start-up measurement (default 3)
  --inject-error     corrupt the moved data once: the run must fail
  -h, --help         this text

Besides the benchmark rows, every job (one program at one PE count and
transport) adds rows op=job_PROG, bytes 0: wall_s, cpu_s (user+sys of oshrun
and all PEs), load_avg (1-minute, at its start), other_cpu (cores other
processes kept busy meanwhile) and bind_core (1 bound, 0 not); see lib.sh.

Start-up: wall time of 3 (--startup-runs) runs of `oshrun -np 4 hello`
(launch, shmem_init, finalize) -> rows oshmem,shm,4,startup,0,lat_us (the
median, us), lat_p50_us and lat_p99_us (median and nearest-rank p99 of the
runs' wall times), cpu_p50_s and cpu_p99_s (the same of their CPU-seconds),
plus the job_startup rows (medians of the runs).

Exit status: 0 if every run succeeded and verified its data, 1 otherwise.
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src_dir=$here/c
build_dir=$here/build/c
# shellcheck source=bench/lib.sh
source "$here/lib.sh"

quick=0
pes_list=()
transports=()
out=""
startup=1
progs=()
startup_only=0
startup_runs=3
bind=""
inject=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) quick=1 ;;
        --pes) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra v <<<"$2"; pes_list+=("${v[@]}"); shift ;;
        --pes=*) IFS=, read -ra v <<<"${1#*=}"; pes_list+=("${v[@]}") ;;
        --transport) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra v <<<"$2"; transports+=("${v[@]}"); shift ;;
        --transport=*) IFS=, read -ra v <<<"${1#*=}"; transports+=("${v[@]}") ;;
        --out) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; out=$2; shift ;;
        --out=*) out=${1#*=} ;;
        --prog) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra v <<<"$2"; progs+=("${v[@]}"); shift ;;
        --prog=*) IFS=, read -ra v <<<"${1#*=}"; progs+=("${v[@]}") ;;
        --bind) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; bind=$2; shift ;;
        --bind=*) bind=${1#*=} ;;
        --inject-error) inject=(--inject-error) ;;
        --no-startup) startup=0 ;;
        --startup-only) startup_only=1 ;;
        --startup-runs) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; startup_runs=$2; shift ;;
        --startup-runs=*) startup_runs=${1#*=} ;;
        -h|--help) usage; exit 0 ;;
        *) echo "oshmem.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
[[ ${#pes_list[@]} -gt 0 ]] || pes_list=(2 4)
[[ ${#transports[@]} -gt 0 ]] || transports=(shm ucx-tcp)
for n in "${pes_list[@]}"; do
    [[ $n =~ ^[0-9]+$ && $n -ge 2 ]] || { echo "oshmem.sh: --pes needs an integer >= 2, got '$n'" >&2; exit 2; }
done
for t in "${transports[@]}"; do
    [[ $t == shm || $t == ucx-tcp ]] || { echo "oshmem.sh: unknown transport '$t' (shm|ucx-tcp)" >&2; exit 2; }
done
[[ ${#progs[@]} -gt 0 ]] || progs=(rma amo coll pingpong steady)
[[ $startup_only -eq 0 ]] || { progs=(); startup=1; }
[[ $startup_runs =~ ^[1-9][0-9]*$ ]] || { echo "oshmem.sh: --startup-runs needs an integer >= 1, got '$startup_runs'" >&2; exit 2; }
for p in "${progs[@]}"; do
    [[ $p =~ ^(rma|amo|coll|pingpong|steady)$ ]] || { echo "oshmem.sh: unknown program '$p' (rma|amo|coll|pingpong|steady)" >&2; exit 2; }
done
[[ -z $bind || $bind == core || $bind == none ]] || { echo "oshmem.sh: --bind core|none, got '$bind'" >&2; exit 2; }

log() { echo "[oshmem.sh] $*" >&2; }

# Rows go to FILE (appended) or stdout.
emit() {
    if [[ -n $out ]]; then cat >>"$out"; else cat; fi
}

# openmpi-bin alone (which .ci/run installs for the Slurm tests) has oshcc but not shmem.h.
if ! command -v oshcc >/dev/null || ! command -v oshrun >/dev/null \
        || ! echo '#include <shmem.h>' | oshcc -E -x c - >/dev/null 2>&1; then
    log "oshcc, oshrun or shmem.h missing: installing openmpi-bin libopenmpi-dev libucx0"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq openmpi-bin libopenmpi-dev libucx0 >&2
fi

# 2 cores: anything else running skews the numbers badly (seen: 2-5x on tcp).
load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" 'BEGIN{exit !(l > 0.5)}'; then
    log "warning: load average is $load; other processes will perturb the results"
fi

mkdir -p "$build_dir"
for prog in rma amo coll pingpong steady hello; do
    if [[ ! -x $build_dir/$prog || $src_dir/$prog.c -nt $build_dir/$prog || $src_dir/bench_common.h -nt $build_dir/$prog ]]; then
        oshcc -O2 -Wall -Wextra -o "$build_dir/$prog" "$src_dir/$prog.c"
        log "built $build_dir/$prog"
    fi
done

# Always required: without it OSHMEM 4.1.4 segfaults in shmem_finalize.
# --oversubscribe: this machine has 2 cores and we run up to 4 PEs.
osh=(oshrun --allow-run-as-root --oversubscribe --mca opal_common_ucx_opal_mem_hooks 0)
# PMIX_MCA_psec=native: lib.sh (no munge needed, nor waited for, in a one-node job).
prog_args=("${inject[@]}")
[[ $quick -eq 1 ]] && prog_args+=(--quick)
timeout_s=$([[ $quick -eq 1 ]] && echo 300 || echo 1200)

transport_args() {
    case $1 in
        shm) ;;
        ucx-tcp) echo "-x UCX_TLS=tcp,self --mca btl tcp,self" ;;
    esac
}

# The binding for N PEs (--bind, else core when N <= cores), and oshrun's option for it.
bind_for() {
    if [[ -n $bind ]]; then echo "$bind"; elif [[ $1 -le $(nproc) ]]; then echo core; else echo none; fi
}
bind_args() {
    case $(bind_for "$1") in
        none) echo "--bind-to none" ;;
        core) [[ $1 -le $(nproc) ]] && echo "--bind-to core" || echo "--bind-to core:overload-allowed" ;;
    esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=()

# run N TRANSPORT PROG CMD...: runs CMD, forwards its CSV rows and the job's, reports failure.
run() {
    local n=$1 t=$2 prog=$3 label="$3 np=$1 $2" rc=0
    shift 3
    measure_job "$tmp/stats" timeout "$timeout_s" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    job_output oshmem "$t" "$n" "$prog" "$(bind_for "$n")" "$tmp" | emit
    if [[ $rc -ne 0 ]]; then
        cat "$tmp/err" >&2
        log "FAILED: $label (exit $rc$([[ $rc -eq 124 ]] && echo ', timed out'))"
        failures+=("$label")
    else
        log "$label: $(cut -d' ' -f1 "$tmp/stats") s"
    fi
}

for n in "${pes_list[@]}"; do
    for t in "${transports[@]}"; do
        # shellcheck disable=SC2207
        targs=($(transport_args "$t") $(bind_args "$n"))
        for prog in "${progs[@]}"; do
            run "$n" "$t" "$prog" "${osh[@]}" -np "$n" "${targs[@]}" \
                "$build_dir/$prog" --transport "$t" "${prog_args[@]}"
        done
    done
done

if [[ $startup -eq 1 ]]; then
    samples=()
    # shellcheck disable=SC2207
    sargs=($(bind_args 4))
    stats=()
    for ((i = 1; i <= startup_runs; i++)); do
        if ! sample=$(measure_hello "$tmp/stats$i" 'hello from PE' timeout 120 "${osh[@]}" -np 4 "${sargs[@]}" \
            "$build_dir/hello"); then
            log "FAILED: startup run $i"
            failures+=("startup")
            break
        fi
        samples+=("$sample")
        stats+=("$tmp/stats$i")
    done
    if [[ ${#samples[@]} -eq $startup_runs ]]; then
        log "startup samples (us): ${samples[*]}"
        echo "oshmem,shm,4,startup,0,lat_us,$(median_of "${samples[@]}").000,us" | emit
        startup_quantile_rows oshmem startup "${stats[@]}" | emit
        # The job rows: the median of each column over the runs.
        median_stats "${stats[@]}" >"$tmp/stats"
        job_rows oshmem shm 4 startup "$(bind_for 4)" "$tmp/stats" | emit
    fi
fi

if [[ ${#failures[@]} -gt 0 ]]; then
    log "${#failures[@]} failed: ${failures[*]}"
    exit 1
fi
log "all runs verified"
