#!/usr/bin/env bash
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
# Runs real kernels side by side: the C originals (Parallel Research Kernels' SHMEM Stencil,
# Transpose, Synch_p2p; ISx's SHMEM version) on Open MPI's OSHMEM, and their Java ports
# (module apps, io.jshmem.apps) on jshmem, interleaved, with the same problem sizes. Writes
# results.csv and summary.md and ends with one "RATIO <kernel> <pes> <transport> <java/c time>"
# line per row. See --help and bench/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: bench/kernels.sh --prk DIR --isx DIR [--pes 1,2,4] [--rounds 3] [--transports shm,ucx]
                        [--tiny] [--out DIR] [--help]

Runs each kernel (stencil, transpose, p2p, isx) in C on Open MPI's OSHMEM and in Java on jshmem,
back to back, at each PE count and transport; the C side goes first in odd rounds, the Java
side in even ones. The ratio of a row is the median over the rounds of each round's java/c time
ratio (the kernels' own timed average per iteration), with its range.

  --prk DIR         a checkout of https://github.com/ParRes/Kernels in which the SHMEM kernels
                    are built with the project's own build and Open MPI's oshcc:
                    DIR/SHMEM/Stencil/stencil, DIR/SHMEM/Transpose/transpose,
                    DIR/SHMEM/Synch_p2p/p2p (their Makefile defaults: see bench/README.md)
  --isx DIR         a checkout of https://github.com/ParRes/ISx with its SHMEM version built:
                    DIR/SHMEM/bin/isx.strong
  --prk-commit C, --isx-commit C
                    the commit the sources were taken from, for the summary, when DIR is not a git
                    checkout (e.g. an exported tree); a git checkout names its own HEAD
  --pes LIST        PE counts (default 1,2,4); over ucx only those >= 2 run
  --rounds R        rounds (default 3; at least 3 for a measurement, 1 for a smoke run)
  --transports LIST shm (shared memory) and/or ucx (UCX over TCP between the PEs of this machine:
                    jshmem with SHMEM_TRANSPORT=ucx, both with UCX_TLS=tcp,self) (default shm,ucx)
  --tiny            tiny problem sizes: a smoke run that proves the pipeline, not a measurement
  --out DIR         the run directory (default bench/runs/kernels-<UTC time>[-tiny])
  -h, --help        this text

Problem sizes (the same arguments to both sides):
  stencil   <iterations> <grid size>                      100 2000      (--tiny: 3 64)
  transpose <iterations> <matrix order> (tile 32)         50 2000       (--tiny: 3 64)
  p2p       <iterations> <1st dim> <2nd dim>              50 4000 4000  (--tiny: 3 64 64)
  isx       isx.strong <total keys> <iterations> <log>    16777216 10   (--tiny: 65536 2)

Both sides get the same symmetric heap (1200 MiB per PE: ISx's receive buffer alone is 1 GiB),
the same binding (bound to cores when PEs <= cores, else unbound) and the originals' own
warm-up (the first iteration is untimed in every kernel); nothing else is tuned.

Results, in the run directory: results.csv (one row per run), summary.md (the table),
kernels_<transport>.png (both sides' medians per kernel and PE count), run.log.
Exit status: 0 if every run verified, 1 if one failed (the table is still written), 2 on bad
usage, a missing prerequisite or a failed build.
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
source "$here/lib.sh"

prk=""
isx=""
prk_commit=""
isx_commit=""
pes_list=()
rounds=3
transports=()
tiny=0
out=""
die() { echo "kernels.sh: $*" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
    case $1 in
        --prk) [[ $# -ge 2 ]] || die "--prk needs a directory"; prk=$2; shift ;;
        --prk=*) prk=${1#*=} ;;
        --isx) [[ $# -ge 2 ]] || die "--isx needs a directory"; isx=$2; shift ;;
        --isx=*) isx=${1#*=} ;;
        --pes) [[ $# -ge 2 ]] || die "--pes needs a list"; IFS=, read -ra v <<<"$2"; pes_list+=("${v[@]}"); shift ;;
        --pes=*) IFS=, read -ra v <<<"${1#*=}"; pes_list+=("${v[@]}") ;;
        --rounds) [[ $# -ge 2 ]] || die "--rounds needs a number"; rounds=$2; shift ;;
        --rounds=*) rounds=${1#*=} ;;
        --transports|--transport) [[ $# -ge 2 ]] || die "--transports needs a list"; IFS=, read -ra v <<<"$2"; transports+=("${v[@]}"); shift ;;
        --transports=*|--transport=*) IFS=, read -ra v <<<"${1#*=}"; transports+=("${v[@]}") ;;
        --prk-commit) [[ $# -ge 2 ]] || die "--prk-commit needs a commit"; prk_commit="$2 (as given)"; shift ;;
        --isx-commit) [[ $# -ge 2 ]] || die "--isx-commit needs a commit"; isx_commit="$2 (as given)"; shift ;;
        --tiny) tiny=1 ;;
        --out) [[ $# -ge 2 ]] || die "--out needs a directory"; out=$2; shift ;;
        --out=*) out=${1#*=} ;;
        -h|--help) usage; exit 0 ;;
        *) echo "kernels.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
[[ -n $prk && -n $isx ]] || { echo "kernels.sh: --prk DIR and --isx DIR are required" >&2; usage >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds needs a positive integer, got '$rounds'"
[[ ${#pes_list[@]} -gt 0 ]] || pes_list=(1 2 4)
for n in "${pes_list[@]}"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "--pes needs positive integers, got '$n'"
done
[[ ${#transports[@]} -gt 0 ]] || transports=(shm ucx)
for t in "${transports[@]}"; do
    [[ $t == shm || $t == ucx ]] || die "unknown transport '$t' (shm|ucx)"
done

# ---------------------------------------------------------------- prerequisites

# The C executables, built by the user in their checkouts (this repository holds none of the
# originals' code and builds none of it): checked here, with what to do when one is missing.
declare -A c_exe=([stencil]=$prk/SHMEM/Stencil/stencil [transpose]=$prk/SHMEM/Transpose/transpose
    [p2p]=$prk/SHMEM/Synch_p2p/p2p [isx]=$isx/SHMEM/bin/isx.strong)
declare -A java_main=([stencil]=io.jshmem.apps.Stencil [transpose]=io.jshmem.apps.Transpose
    [p2p]=io.jshmem.apps.P2p [isx]=io.jshmem.apps.IsxStrong)
kernels=(stencil transpose p2p isx)
missing=0
command -v oshrun >/dev/null && oshrun --version 2>&1 | grep 'Open MPI\|OpenRTE' >/dev/null || {
    echo "kernels.sh: needs Open MPI's oshrun on the PATH (Debian: apt-get install openmpi-bin libopenmpi-dev libucx0)" >&2
    missing=1
}
for k in "${kernels[@]}"; do
    exe=${c_exe[$k]}
    if [[ ! -x $exe ]]; then
        case $k in
            isx) src="ISx (--isx $isx): its SHMEM/Makefile, 'optimized' target; see bench/README.md for what Open MPI 4.1's OSHMEM needs" ;;
            *) src="the Parallel Research Kernels (--prk $prk): its SHMEM kernels with SHMEMCC set to oshcc in common/make.defs" ;;
        esac
        echo "kernels.sh: no executable $exe: build $src" >&2
        missing=1
    elif command -v ldd >/dev/null && ! ldd "$exe" 2>/dev/null | grep liboshmem >/dev/null; then
        echo "kernels.sh: $exe is not linked with Open MPI's liboshmem: build it with oshcc" >&2
        missing=1
    fi
done
[[ $missing -eq 0 ]] || exit 2

select_jdk25 kernels.sh

# ---------------------------------------------------------------- run directory

suffix=; [[ $tiny -eq 1 ]] && suffix=-tiny
run_dir=${out:-$here/runs/kernels-$(date -u +%Y%m%d-%H%M%S)$suffix}
mkdir -p "$run_dir"
run_dir=$(cd "$run_dir" && pwd)
exec 2> >(tee -a "$run_dir/run.log" >&2)
log() { echo "[kernels.sh] $*" >&2; }

if [[ $tiny -eq 1 ]]; then
    declare -A args=([stencil]="3 64" [transpose]="3 64" [p2p]="3 64 64" [isx]="65536 2")
else
    declare -A args=([stencil]="100 2000" [transpose]="50 2000" [p2p]="50 4000 4000" [isx]="16777216 10")
fi

# ---------------------------------------------------------------- build jshmem and the ports

jshmem_modules=(shmem-api shmem-core shmem-spawn shmem-ucx shmem-launcher)
stamp=$root/apps/target/kernels.sh.built # written after a successful build
need_build=0
[[ -e $stamp ]] || need_build=1
for m in "${jshmem_modules[@]}" apps shmem-bench; do
    module_jar "$m" >/dev/null || need_build=1
done
[[ -f $root/shmem-bench/target/runtime.classpath ]] || need_build=1
if [[ $need_build -eq 0 ]] &&
    [[ -n $(find "$root/pom.xml" "$root"/shmem-*/pom.xml "$root"/shmem-*/src/main "$root/apps/pom.xml" "$root/apps/src/main" \
        "$root/shmem-bench/pom.xml" "$root/shmem-bench/src/main" -newer "$stamp" -type f -print -quit) ]]; then
    need_build=1
fi
if [[ $need_build -eq 1 ]]; then
    modules=$(IFS=,; echo "${jshmem_modules[*]},apps,shmem-bench") # shmem-bench: the plots
    # package, not install: the jars in target/ are used, ~/.m2 stays as it was.
    log "building: mvn -q -Dmaven.test.skip=true package -pl $modules -am"
    (cd "$root" && mvn -q -Dmaven.test.skip=true package -pl "$modules" -am) >&2 || die "build failed"
    touch "$stamp"
fi
# A private copy in oshrun's distribution layout: a rebuild elsewhere in the tree cannot change
# the classes under a running comparison.
snap=$here/build/kernels
snapshot_jshmem "$snap"
apps_jar=$snap/app/apps.jar
cp "$(module_jar apps)" "$apps_jar"
charts_cp=$snap/app/shmem-bench.jar:$(cat "$root/shmem-bench/target/runtime.classpath")
cp "$(module_jar shmem-bench)" "$snap/app/shmem-bench.jar"
jshmem_oshrun=$snap/bin/oshrun

# ---------------------------------------------------------------- one run of each side

cores=$(nproc)
bind_for() { if [[ $1 -le $cores ]]; then echo core; else echo none; fi; }
osh=(oshrun --oversubscribe --mca opal_common_ucx_opal_mem_hooks 0)
[[ $(id -u) -ne 0 ]] || osh+=(--allow-run-as-root)
timeout_s=1800

# c_cmd KERNEL PES TRANSPORT LOGFILE: sets cmd to the OSHMEM command line.
c_cmd() {
    local k=$1 n=$2 t=$3 b
    b=$(bind_for "$n")
    # Open MPI 4.1's OSHMEM reads SMA_SYMMETRIC_SIZE (SHMEM_SYMMETRIC_SIZE alone left it at 256 MiB).
    cmd=(timeout "$timeout_s" "${osh[@]}" -np "$n" -x SMA_SYMMETRIC_SIZE=1200M)
    if [[ $b == core ]]; then cmd+=(--bind-to core); else cmd+=(--bind-to none); fi
    [[ $t == ucx ]] && cmd+=(-x UCX_TLS=tcp,self --mca btl tcp,self)
    # shellcheck disable=SC2206
    cmd+=("${c_exe[$k]}" ${args[$k]})
    [[ $k == isx ]] && cmd+=("$4")
    return 0
}

# java_cmd KERNEL PES TRANSPORT LOGFILE: sets cmd to the jshmem command line.
java_cmd() {
    local k=$1 n=$2 t=$3
    cmd=("$jshmem_oshrun" -np "$n" --timeout "$timeout_s" --bind-to "$(bind_for "$n")" -x SHMEM_SYMMETRIC_SIZE=1200m)
    [[ $t == ucx ]] && cmd+=(-x SHMEM_TRANSPORT=ucx -x UCX_TLS=tcp,self)
    # shellcheck disable=SC2206
    cmd+=(-cp "$apps_jar" "${java_main[$k]}" ${args[$k]})
    [[ $k == isx ]] && cmd+=("$4")
    return 0
}

# parse KERNEL OUTFILE RC: prints "verified time rate rate_unit" from a run's output. Both
# sides print the same lines: the PRK "Solution validates" and "Rate (UNIT): R  Avg time (s): T";
# ISx only its averages (a failed verification prints "Failed" and makes the status 1): its
# rate is the sorted keys per second, computed here.
parse() {
    local k=$1 f=$2 rc=$3
    if [[ $k == isx ]]; then
        awk -v rc="$rc" -v keys="${args[isx]%% *}" '
            /^Average total time \(per PE\):/ { t = $6 }
            /Failed|ERROR/ { bad = 1 }
            END { ok = (rc == 0 && !bad && t != "") ? 1 : 0
                  printf "%d %s %s Mkeys/s\n", ok, (t == "" ? "nan" : t), (t > 0 ? sprintf("%.6f", keys / t / 1e6) : "nan") }' "$f"
    else
        awk -v rc="$rc" '
            /^Solution validates/ { v = 1 }
            /^Rate \(/ { unit = $2; gsub(/[():]/, "", unit); rate = $3; t = $NF }
            END { ok = (rc == 0 && v && t != "") ? 1 : 0
                  printf "%d %s %s %s\n", ok, (t == "" ? "nan" : t), (rate == "" ? "nan" : rate), (unit == "" ? "-" : unit) }' "$f"
    fi
}

csv=$run_dir/results.csv
echo "kernel,pes,transport,impl,round,position,verified,time_s,rate,rate_unit,wall_s,cpu_s,load_avg,other_cpu,bind_core" >"$csv"
failures=()
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_one IMPL KERNEL PES TRANSPORT ROUND POSITION: one job, its CSV row, its output kept.
run_one() {
    local impl=$1 k=$2 n=$3 t=$4 r=$5 pos=$6 rc=0 base verified time rate unit wall cpu load other
    base=$run_dir/out/$k-$n-$t-r$r-$impl
    mkdir -p "$run_dir/out"
    if [[ $impl == c ]]; then c_cmd "$k" "$n" "$t" "$base.isx.log"; else java_cmd "$k" "$n" "$t" "$base.isx.log"; fi
    printf '%q ' "${cmd[@]}" >"$base.cmd"
    measure_job "$tmp/stats" "${cmd[@]}" >"$base.out" 2>"$base.err" </dev/null || rc=$?
    read -r verified time rate unit < <(parse "$k" "$base.out" "$rc")
    read -r wall cpu load other <"$tmp/stats"
    echo "$k,$n,$t,$impl,$r,$pos,$verified,$time,$rate,$unit,$wall,$cpu,$load,$other,$([[ $(bind_for "$n") == core ]] && echo 1 || echo 0)" >>"$csv"
    if [[ $verified -ne 1 ]]; then
        failures+=("$impl $k np=$n $t round $r (exit $rc)")
        log "FAILED: $impl $k np=$n $t round $r (exit $rc); output in $base.out, $base.err"
        tail -5 "$base.out" "$base.err" >&2 || true
    else
        log "$impl $k np=$n $t round $r: $time s per iteration ($rate $unit), job $wall s"
    fi
}

# The rows: every kernel at every PE count over shared memory, and at 2+ PEs over UCX.
rows=()
for t in "${transports[@]}"; do
    for n in "${pes_list[@]}"; do
        [[ $t == ucx && $n -lt 2 ]] && continue
        for k in "${kernels[@]}"; do
            rows+=("$k $n $t")
        done
    done
done
[[ ${#rows[@]} -gt 0 ]] || die "no rows to run (ucx runs only at 2 or more PEs)"

# Untimed: jshmem's first job after a fresh copy makes the ahead-of-time cache (seconds of
# training), and both sides' first job loads their libraries from disk.
log "warm-up: one tiny untimed job on each side"
"$jshmem_oshrun" -np 1 -cp "$apps_jar" io.jshmem.apps.Stencil 1 16 >/dev/null 2>&1 || log "warning: the jshmem warm-up job failed"
"${osh[@]}" -np 1 "${c_exe[stencil]}" 1 16 >/dev/null 2>&1 || log "warning: the OSHMEM warm-up job failed"

log "run directory $run_dir; $rounds round(s) of ${#rows[@]} rows; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= rounds; r++)); do
    for row in "${rows[@]}"; do
        read -r k n t <<<"$row"
        # Alternate who goes first: C in odd rounds, Java in even ones.
        if ((r % 2 == 1)); then
            run_one c "$k" "$n" "$t" "$r" 1
            run_one java "$k" "$n" "$t" "$r" 2
        else
            run_one java "$k" "$n" "$t" "$r" 1
            run_one c "$k" "$n" "$t" "$r" 2
        fi
    done
done

# ---------------------------------------------------------------- report

summary=$run_dir/summary.md
{
    echo "# Kernels: jshmem (Java ports) vs OSHMEM (C originals)"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), $(uname -r); $rounds round(s)$([[ $tiny -eq 1 ]] && echo ', TINY sizes: a smoke run, not a measurement');"
    echo "jshmem $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(java -version 2>&1 | head -1);"
    echo "$(oshrun --version 2>&1 | head -1); PRK $(git -C "$prk" rev-parse --short HEAD 2>/dev/null || echo "${prk_commit:-(not a git checkout)}"),"
    echo "ISx $(git -C "$isx" rev-parse --short HEAD 2>/dev/null || echo "${isx_commit:-(not a git checkout)}"); load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
    echo
    echo "Sizes: stencil ${args[stencil]}, transpose ${args[transpose]}, p2p ${args[p2p]}, isx (strong) ${args[isx]}."
    echo "Time: the kernel's own timed average per iteration (ISx: average total time per iteration"
    echo "and PE), median over rounds; ratio: median (min-max) over rounds of java/c; below 1 Java is faster."
    echo
    echo "| kernel | PEs | transport | C time s | Java time s | C rate | Java rate | java/c time ratio | verified C/Java |"
    echo "|---|---|---|---|---|---|---|---|---|"
} >"$summary"
ratio_lines=()
for row in "${rows[@]}"; do
    read -r k n t <<<"$row"
    line=$(awk -F, -v k="$k" -v n="$n" -v t="$t" '
        function median(a, m,   i, j, x) {  # sorts a[1..m] in place, returns the median
            for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
            return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        }
        $1 == k && $2 == n && $3 == t {
            if ($7 == 1) { ok[$4]++; time[$4, $5] = $8; rate[$4, $5] = $9; unit = $10 }
            runs[$4]++; rounds[$5] = 1
        }
        END {
            nc = nj = nr = 0
            for (r in rounds) {
                if ((("c", r) in time)) { ct[++nc] = time["c", r]; cr[nc] = rate["c", r] }
                if ((("java", r) in time)) { jt[++nj] = time["java", r]; jr[nj] = rate["java", r] }
                if ((("c", r) in time) && (("java", r) in time) && time["c", r] > 0) rt[++nr] = time["java", r] / time["c", r]
            }
            cell = "-"; ratio = "n/a"
            if (nr > 0) {
                ratio = sprintf("%.3f", median(rt, nr))
                cell = sprintf("%s (%.3f-%.3f)", ratio, rt[1], rt[nr])
            }
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %d/%d, %d/%d |\t%s\n", k, n, t,
                nc ? sprintf("%.6f", median(ct, nc)) : "-", nj ? sprintf("%.6f", median(jt, nj)) : "-",
                nc ? sprintf("%.3f %s", median(cr, nc), unit) : "-", nj ? sprintf("%.3f %s", median(jr, nj), unit) : "-",
                cell, ok["c"], runs["c"], ok["java"], runs["java"], ratio
        }' "$csv")
    echo "${line%%$'\t'*}" >>"$summary"
    ratio_lines+=("RATIO $k $n $t ${line##*$'\t'}")
done
{
    echo
    if [[ ${#failures[@]} -gt 0 ]]; then
        echo "Failed runs (no time counted): ${failures[*]}"
        echo
    fi
    printf '%s\n' "${ratio_lines[@]}"
} >>"$summary"
# The plots (kernels_<transport>.png: both sides' medians per kernel and PE count) go next to it.
"$JAVA_HOME/bin/java" -Djava.awt.headless=true -cp "$charts_cp" io.jshmem.bench.report.KernelCharts \
    --csv "$csv" --out "$run_dir" >&2 || failures+=("plots")

cat "$summary"
[[ ${#failures[@]} -eq 0 ]] || exit 1
