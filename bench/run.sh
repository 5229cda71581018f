#!/usr/bin/env bash
# Runs the jshmem benchmarks (shmem-bench, through bin/oshrun) and the same measurements in C on
# Open MPI's OSHMEM (bench/oshmem.sh), alternating per PE count, then writes
# bench/results/{latest.csv,summary.md,*.png}. See --help and bench/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: bench/run.sh [--quick] [--pes N] [--help]

Builds what is missing or stale (mvn install of the modules it uses, tests skipped) and copies
bin/ and the jars to bench/build/jshmem, so that work elsewhere in the tree cannot disturb the
run. Then for each PE count runs the jshmem benchmarks (RmaBench, AmoBench, CollBench through
that copy of bin/oshrun) followed by the OSHMEM ones (bench/oshmem.sh), then the start-up time of
a 4-PE hello world for both, and finally Report.

  --quick      short repetitions (3 of ~2 ms each): a smoke run, under 3 minutes
  --pes N      PE count; repeat or comma-separate (default: 2,4)
  -h, --help   this text

Results, in bench/results/:
  latest.csv   impl,transport,pes,op,bytes,metric,value,unit (rows of both impls)
  summary.md   every row with the jshmem/oshmem ratio, and the targets met or missed
  *.png        latency and bandwidth against message size, jshmem and OSHMEM per chart

Exit status: 0 if every benchmark ran and verified its data, 1 otherwise (the report is still
written from what was measured), 2 on bad usage or a failed build.
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
results=$here/results
csv=$results/latest.csv

quick=0
pes_list=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) quick=1 ;;
        --pes) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; IFS=, read -ra v <<<"$2"; pes_list+=("${v[@]}"); shift ;;
        --pes=*) IFS=, read -ra v <<<"${1#*=}"; pes_list+=("${v[@]}") ;;
        -h|--help) usage; exit 0 ;;
        *) echo "run.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
[[ ${#pes_list[@]} -gt 0 ]] || pes_list=(2 4)
for n in "${pes_list[@]}"; do
    [[ $n =~ ^[0-9]+$ && $n -ge 2 ]] || { echo "run.sh: --pes needs an integer >= 2, got '$n'" >&2; exit 2; }
done

# Transports measured: shared memory, and UCX over TCP between PEs of this machine (UCX_TLS=tcp,self
# on both sides; jshmem with SHMEM_TRANSPORT=ucx so that every peer goes through UCX).
transports=(shm ucx-tcp)

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
# Prints the path of module $1's main jar (not -sources/-tests/-javadoc); fails if there is none.
module_jar() {
    local jar
    for jar in "$root/$1/target/$1"-*.jar; do
        if [[ -f $jar && ! $jar =~ -(sources|tests|javadoc)\.jar$ ]]; then
            echo "$jar"
            return
        fi
    done
    return 1
}
jshmem_modules=(shmem-api shmem-core shmem-spawn shmem-ucx)
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
    log "building: mvn -q -Dmaven.test.skip=true install -pl $modules -am"
    (cd "$root" && mvn -q -Dmaven.test.skip=true install -pl "$modules" -am) >&2 || { log "build failed"; exit 2; }
    touch "$stamp"
fi

# Every job of a run uses one private copy of jshmem, in oshrun's distribution layout (bin/ and
# lib/*.jar), plus the benchmark and example jars: a `mvn clean` or rebuild elsewhere in the tree
# cannot pull classes from under a running benchmark, nor mix two builds in one run.
snap=$here/build/jshmem
rm -rf "$snap"
mkdir -p "$snap/lib" "$snap/app"
cp -r "$root/bin" "$snap/"
for m in "${jshmem_modules[@]}"; do
    cp "$(module_jar "$m")" "$snap/lib/"
done
bench_jar=$snap/app/shmem-bench.jar
hello_jar=$snap/app/shmem-examples.jar
cp "$(module_jar shmem-bench)" "$bench_jar"
cp "$(module_jar shmem-examples)" "$hello_jar"
report_cp=$bench_jar:$(cat "$root/shmem-bench/target/runtime.classpath")
oshrun=$snap/bin/oshrun

# ---------------------------------------------------------------- benchmarks

# 2 cores: anything else running skews the numbers badly, for both implementations.
load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" 'BEGIN{exit !(l > 0.5)}'; then
    log "warning: load average is $load; other processes will perturb the results"
fi

mkdir -p "$results"
rm -f "$results"/*.png "$results/summary.md" # stale plots could mislead next to the new table
echo "impl,transport,pes,op,bytes,metric,value,unit" >"$csv"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=()
mode_args=()
[[ $quick -eq 1 ]] && mode_args+=(--quick)
# Per job; a job normally takes under 5 s (quick) or 20 s (full). A hung job must not eat the
# run's time budget (3 minutes quick, 20 full).
timeout_s=$([[ $quick -eq 1 ]] && echo 60 || echo 180)

# run_jshmem N TRANSPORT: the three benchmark mains as N-PE jobs.
run_jshmem() {
    local n=$1 t=$2 main t0 rc
    local -a topts
    jshmem_transport_opts "$t"
    for main in RmaBench AmoBench CollBench; do
        t0=$(now)
        rc=0
        "$oshrun" -np "$n" --timeout "$timeout_s" "${topts[@]}" -cp "$bench_jar" \
            "io.jshmem.bench.$main" --transport "$t" "${mode_args[@]}" >"$tmp/out" 2>"$tmp/err" || rc=$?
        grep -E '^jshmem,' "$tmp/out" >>"$csv" || true
        grep -vE '^jshmem,' "$tmp/out" >&2 || true # anything else is unexpected: show it
        if [[ $rc -ne 0 ]]; then
            cat "$tmp/err" >&2
            log "FAILED: jshmem $main np=$n $t (exit $rc)"
            failures+=("jshmem $main np=$n $t")
        else
            log "jshmem $main np=$n $t: $(since "$t0") s"
        fi
    done
}

# run_oshmem N TRANSPORT [--no-startup]
run_oshmem() {
    local n=$1 t=$2
    shift 2
    "$here/oshmem.sh" --pes "$n" --transport "$t" --out "$csv" "${mode_args[@]}" "$@" ||
        failures+=("oshmem np=$n $t")
}

# Start-up: median wall time of 3 runs of a 4-PE hello world (launch, init, finalize), in us.
run_jshmem_startup() {
    local i t0 t1 rc lines
    local -a samples=()
    for i in 1 2 3; do
        t0=$(now)
        rc=0
        "$oshrun" -np 4 --timeout 120 -cp "$hello_jar" io.jshmem.examples.Hello >"$tmp/hello" 2>"$tmp/err" || rc=$?
        t1=$(now)
        lines=$(grep -c '^Hello from PE' "$tmp/hello" || true)
        if [[ $rc -ne 0 || $lines -ne 4 ]]; then
            cat "$tmp/err" >&2
            log "FAILED: jshmem startup run $i (exit $rc, $lines of 4 hello lines)"
            failures+=("jshmem startup")
            return
        fi
        samples+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.0f", (b-a)*1e6}')")
    done
    log "jshmem startup samples (us): ${samples[*]}"
    echo "jshmem,shm,4,startup,0,lat_us,$(printf '%s\n' "${samples[@]}" | sort -n | sed -n 2p).000,us" >>"$csv"
}

last=${pes_list[${#pes_list[@]}-1]}
for n in "${pes_list[@]}"; do
    for t in "${transports[@]}"; do
        run_jshmem "$n" "$t"
        # OSHMEM's start-up is measured once, by the last oshmem.sh call; jshmem's right after it.
        if [[ $n == "$last" && $t == "${transports[-1]}" ]]; then
            run_oshmem "$n" "$t"
        else
            run_oshmem "$n" "$t" --no-startup
        fi
    done
done
run_jshmem_startup

# ---------------------------------------------------------------- report

elapsed=$(since "$t_start")
note="$( [[ $quick -eq 1 ]] && echo "Quick run (--quick: 3 repetitions of ~2 ms per row; expect noise)" ||
    echo "Full run (9 repetitions of ~30 ms per row)"), PEs ${pes_list[*]}, $(date -u '+%Y-%m-%d %H:%M UTC'),
$(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), load average at start $load,
the run took ${elapsed} s. Median of the repetitions; each repetition verified the data it moved."
if awk -v l="$load" 'BEGIN{exit !(l > 0.5)}'; then
    note+="

**Warning**: other processes were running (load average $load at start); on this machine that
perturbs both implementations, jshmem's waits (barrier) most."
fi
"$JAVA_HOME/bin/java" -Djava.awt.headless=true \
    -cp "$report_cp" \
    io.jshmem.bench.report.Report --csv "$csv" --out "$results" --note "$note" >&2 ||
    failures+=("report")

log "results: $csv, $results/summary.md, $results/*.png (total $(since "$t_start") s)"
if [[ ${#failures[@]} -gt 0 ]]; then
    log "${#failures[@]} failed: ${failures[*]}"
    exit 1
fi
