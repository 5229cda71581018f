#!/usr/bin/env bash
# Runs the C OpenSHMEM benchmarks (bench/c/) on Open MPI's OSHMEM and emits
# CSV rows: impl,transport,pes,op,bytes,metric,value,unit (no header).
# See --help. Progress goes to stderr, so stdout carries only CSV.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: bench/oshmem.sh [--quick] [--pes N] [--transport shm|ucx-tcp] [--out FILE]

Compiles bench/c/*.c with oshcc -O2 into bench/build/c/ and runs them with
oshrun, appending CSV rows (impl,transport,pes,op,bytes,metric,value,unit)
to FILE (default: stdout). Installs openmpi-bin/libopenmpi-dev/libucx0 with
apt-get if oshcc is missing.

  --quick            short calibration target and 3 repetitions (smoke run)
  --pes N            PE count; repeat or comma-separate (default: 2,4)
  --transport T      shm | ucx-tcp; repeat or comma-separate (default: both)
                       shm:     OSHMEM defaults (UCX shared memory; MPI-level
                                collectives over the vader shared-memory BTL)
                       ucx-tcp: -x UCX_TLS=tcp,self and --mca btl tcp,self,
                                so both RMA/AMO and collectives use TCP
  --out FILE         append rows to FILE instead of writing to stdout
  --no-startup       skip the start-up measurement
  -h, --help         this text

Besides rma, amo and coll at every PE count and transport, measures start-up:
median wall time of 3 runs of `oshrun -np 4 hello` (launch, shmem_init,
finalize) -> row oshmem,shm,4,startup,0,lat_us,<us>,us.

Exit status: 0 if every run succeeded and verified its data, 1 otherwise.
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src_dir=$here/c
build_dir=$here/build/c

quick=0
pes_list=()
transports=()
out=""
startup=1
while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) quick=1 ;;
        --pes) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra v <<<"$2"; pes_list+=("${v[@]}"); shift ;;
        --pes=*) IFS=, read -ra v <<<"${1#*=}"; pes_list+=("${v[@]}") ;;
        --transport) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra v <<<"$2"; transports+=("${v[@]}"); shift ;;
        --transport=*) IFS=, read -ra v <<<"${1#*=}"; transports+=("${v[@]}") ;;
        --out) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; out=$2; shift ;;
        --out=*) out=${1#*=} ;;
        --no-startup) startup=0 ;;
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

log() { echo "[oshmem.sh] $*" >&2; }

# Rows go to FILE (appended) or stdout.
emit() {
    if [[ -n $out ]]; then cat >>"$out"; else cat; fi
}

if ! command -v oshcc >/dev/null || ! command -v oshrun >/dev/null; then
    log "oshcc/oshrun missing: installing openmpi-bin libopenmpi-dev libucx0"
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
for prog in rma amo coll hello; do
    oshcc -O2 -Wall -Wextra -o "$build_dir/$prog" "$src_dir/$prog.c"
done
log "built rma amo coll hello in $build_dir"

# Always required: without it OSHMEM 4.1.4 segfaults in shmem_finalize.
# --oversubscribe: this machine has 2 cores and we run up to 4 PEs.
osh=(oshrun --allow-run-as-root --oversubscribe --mca opal_common_ucx_opal_mem_hooks 0)
prog_args=()
[[ $quick -eq 1 ]] && prog_args+=(--quick)
timeout_s=$([[ $quick -eq 1 ]] && echo 120 || echo 600)

transport_args() {
    case $1 in
        shm) ;;
        ucx-tcp) echo "-x UCX_TLS=tcp,self --mca btl tcp,self" ;;
    esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=()

# run LABEL CMD...: runs CMD, forwards its CSV rows, reports failure.
run() {
    local label=$1; shift
    local t0 t1 rc=0
    t0=$(date +%s.%N)
    timeout "$timeout_s" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    t1=$(date +%s.%N)
    grep -E '^oshmem,' "$tmp/out" | emit || true
    # Anything else on stdout is unexpected; show it rather than lose it.
    grep -vE '^oshmem,' "$tmp/out" >&2 || true
    if [[ $rc -ne 0 ]]; then
        cat "$tmp/err" >&2
        log "FAILED: $label (exit $rc$([[ $rc -eq 124 ]] && echo ', timed out'))"
        failures+=("$label")
    else
        log "$label: $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}') s"
    fi
}

for n in "${pes_list[@]}"; do
    for t in "${transports[@]}"; do
        # shellcheck disable=SC2207
        targs=($(transport_args "$t"))
        for prog in rma amo coll; do
            run "$prog np=$n $t" "${osh[@]}" -np "$n" "${targs[@]}" \
                "$build_dir/$prog" --transport "$t" "${prog_args[@]}"
        done
    done
done

if [[ $startup -eq 1 ]]; then
    samples=()
    for i in 1 2 3; do
        t0=$(date +%s.%N)
        rc=0
        timeout 120 "${osh[@]}" -np 4 "$build_dir/hello" >"$tmp/hello" 2>"$tmp/err" || rc=$?
        t1=$(date +%s.%N)
        lines=$(grep -c '^hello from PE' "$tmp/hello" || true)
        if [[ $rc -ne 0 || $lines -ne 4 ]]; then
            cat "$tmp/err" >&2
            log "FAILED: startup run $i (exit $rc, $lines of 4 hello lines)"
            failures+=("startup")
            break
        fi
        samples+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.0f", (b-a)*1e6}')")
    done
    if [[ ${#samples[@]} -eq 3 ]]; then
        med=$(printf '%s\n' "${samples[@]}" | sort -n | sed -n 2p)
        log "startup samples (us): ${samples[*]}"
        echo "oshmem,shm,4,startup,0,lat_us,$med.000,us" | emit
    fi
fi

if [[ ${#failures[@]} -gt 0 ]]; then
    log "${#failures[@]} failed: ${failures[*]}"
    exit 1
fi
log "all runs verified"
