# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
# Shared by the bench scripts (sourced): what a whole job cost, as CSV rows.
# shellcheck shell=bash

# Busy CPU ticks of the whole machine so far (user nice system irq softirq of /proc/stat's cpu line).
busy_ticks() {
    local _cpu user nice system _idle _iowait irq softirq _rest
    read -r _cpu user nice system _idle _iowait irq softirq _rest </proc/stat
    echo $((user + nice + system + irq + softirq))
}

clk_tck=$(getconf CLK_TCK)

# Open MPI's PMIx authenticates its local clients with munge when the munge plugin is installed
# (Slurm's setup here installs it); with munged stopped each OSHMEM PE retries for ~2 s (a 4-PE
# hello 2.6 s instead of 0.4; bench/scale.sh measured OSHMEM's launch at 2.3 s before it set this).
# A one-node job needs no munge: PMIx's native security, whether munged runs or not. Every script
# that runs OSHMEM sources this file.
export PMIX_MCA_psec=native

# measure_job STATS CMD...: runs CMD and writes to the file STATS one line
# "wall_s cpu_s load_avg other_cpu" (see job_rows); returns CMD's exit status. cpu_s is the user +
# system time of CMD and every descendant it waited for (the launcher and all PEs), read from the
# cutime/cstime of the shell that waits for CMD (/proc/PID/stat fields 16 and 17).
measure_job() {
    local stats=$1 load busy0 t0 t1 ticks rc=0
    shift
    load=$(cut -d' ' -f1 /proc/loadavg)
    busy0=$(busy_ticks)
    t0=$(date +%s.%N)
    MEASURE_JOB_OUT=$stats.cpu bash -c '"$@"; rc=$?
        s=$(</proc/$$/stat); set -- ${s##*) }; echo $(( ${14} + ${15} )) >"$MEASURE_JOB_OUT"; exit $rc' \
        measure_job "$@" || rc=$?
    t1=$(date +%s.%N)
    ticks=$(cat "$stats.cpu" 2>/dev/null || echo 0)
    rm -f "$stats.cpu"
    # Other processes' CPU during the job: the machine's busy time minus the job's own.
    awk -v a="$t0" -v b="$t1" -v l="$load" -v j="$ticks" -v b0="$busy0" -v b1="$(busy_ticks)" -v hz="$clk_tck" \
        'BEGIN { w = b - a; o = ((b1 - b0) - j) / hz / w; if (o < 0) o = 0;
                 printf "%.6f %.3f %.2f %.2f\n", w, j / hz, l, o }' >"$stats"
    return $rc
}

# job_rows IMPL TRANSPORT PES JOB BIND STATS: the CSV rows of one job (op job_JOB, bytes 0) from
# measure_job's STATS file; BIND is core or none.
job_rows() {
    local impl=$1 t=$2 n=$3 job=$4 bind=$5 wall cpu load other
    read -r wall cpu load other <"$6"
    printf '%s,%s,%s,job_%s,0,%s\n' \
        "$impl" "$t" "$n" "$job" "wall_s,$wall,s" \
        "$impl" "$t" "$n" "$job" "cpu_s,$cpu,s" \
        "$impl" "$t" "$n" "$job" "load_avg,$load,load" \
        "$impl" "$t" "$n" "$job" "other_cpu,$other,cores" \
        "$impl" "$t" "$n" "$job" "bind_core,$([[ $bind == core ]] && echo 1 || echo 0),flag"
}

# job_output IMPL TRANSPORT PES PROG BIND DIR: after a job measured by measure_job into DIR/stats,
# with its stdout in DIR/out and stderr in DIR/err: prints its IMPL rows and the job rows on stdout,
# anything else it printed on stderr.
job_output() {
    grep -E "^$1," "$6/out" || true
    job_rows "$1" "$2" "$3" "$4" "$5" "$6/stats"
    grep -vE "^$1," "$6/out" >&2 || true # anything else is unexpected: show it rather than lose it
}

# measure_hello STATS PATTERN CMD...: one start-up sample: runs the 4-PE hello world CMD through
# measure_job into STATS and prints its wall time in us. Fails (printing CMD's stderr and why on
# stderr) unless CMD succeeded with 4 lines starting with PATTERN.
measure_hello() {
    local stats=$1 pattern=$2 rc=0 lines
    shift 2
    measure_job "$stats" "$@" >"$stats.out" 2>"$stats.err" || rc=$?
    lines=$(grep -c "^$pattern" "$stats.out" || true)
    if [[ $rc -ne 0 || $lines -ne 4 ]]; then
        cat "$stats.err" >&2
        echo "exit $rc, $lines of 4 hello lines" >&2
        return 1
    fi
    awk '{printf "%.0f", $1 * 1e6}' "$stats"
}

# median_stats STATS...: measure_job's stats line whose every column is the median of those files'.
median_stats() {
    local col
    for col in 1 2 3 4; do
        # shellcheck disable=SC2046
        median_of $(cut -d' ' -f"$col" "$@")
    done | paste -sd' '
}

# percentile_of P N...: the nearest-rank P-th percentile (0 < P <= 100) of the numbers (as
# Harness.percentile and bench_percentile: of 7 numbers, p50 is the 4th smallest, p99 the largest).
percentile_of() {
    local p=$1
    shift
    printf '%s\n' "$@" | sort -g | awk -v p="$p" -v n="$#" '
        BEGIN { k = int(n * p / 100); if (k < n * p / 100) k++; if (k < 1) k = 1; if (k > n) k = n }
        NR == k { print; exit }'
}

# startup_quantile_rows IMPL OP STATS...: the start-up rows judged by the targets, from the runs'
# measure_job STATS files: lat_p50_us and lat_p99_us of their wall times (us), cpu_p50_s and
# cpu_p99_s of their CPU-seconds (launcher and every PE).
startup_quantile_rows() {
    local impl=$1 op=$2 f
    shift 2
    local -a wall=() cpu=()
    for f in "$@"; do
        wall+=("$(awk '{printf "%.0f", $1 * 1e6}' "$f")")
        cpu+=("$(cut -d' ' -f2 "$f")")
    done
    echo "$impl,shm,4,$op,0,lat_p50_us,$(percentile_of 50 "${wall[@]}").000,us"
    echo "$impl,shm,4,$op,0,lat_p99_us,$(percentile_of 99 "${wall[@]}").000,us"
    echo "$impl,shm,4,$op,0,cpu_p50_s,$(percentile_of 50 "${cpu[@]}"),s"
    echo "$impl,shm,4,$op,0,cpu_p99_s,$(percentile_of 99 "${cpu[@]}"),s"
}

# median_of N...: the median of an odd number of numbers.
median_of() {
    printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"
}

# module_jar MODULE: the path of $root/MODULE's main jar (not -sources/-tests/-javadoc); fails if there
# is none. $root is the repository root (set by the script that sources this file).
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

# snapshot_jshmem DIR: DIR/bin (a copy of bin/) and DIR/lib (the jars of the modules named in
# $jshmem_modules; shmem-launcher's in DIR/lib/launcher, off the PEs' class path), oshrun's
# distribution layout, and an empty DIR/app for the programs' jars.
snapshot_jshmem() {
    local m
    rm -rf "$1"
    mkdir -p "$1/lib/launcher" "$1/app"
    cp -r "$root/bin" "$1/"
    for m in "${jshmem_modules[@]}"; do
        if [[ $m == shmem-launcher ]]; then
            cp "$(module_jar "$m")" "$1/lib/launcher/"
        else
            cp "$(module_jar "$m")" "$1/lib/"
        fi
    done
}

# snapshot_source_tree DIR: DIR/bin (a copy of bin/) and, for each module named in $jshmem_modules,
# DIR/MODULE/target/classes and its jar, modification times kept: oshrun's source-tree layout after
# `mvn install` (bin/jshmem-env.sh then runs the jars, which the ahead-of-time cache needs).
snapshot_source_tree() {
    local m
    rm -rf "$1"
    mkdir -p "$1"
    cp -r "$root/bin" "$1/"
    for m in "${jshmem_modules[@]}"; do
        mkdir -p "$1/$m/target"
        cp -a "$root/$m/target/classes" "$1/$m/target/"
        cp -p "$(module_jar "$m")" "$1/$m/target/"
    done
}

# select_jdk25 NAME: exports JAVA_HOME (and PATH) of a JDK 25 or newer: $JAVA_HOME if it is one,
# else the first /usr/lib/jvm/*25*; exits with status 2, NAME saying why, if there is none.
select_jdk25() {
    local candidate
    if [[ -z ${JAVA_HOME:-} ]] || ! is_jdk25 "$JAVA_HOME"; then
        JAVA_HOME=
        for candidate in /usr/lib/jvm/*25*; do
            if is_jdk25 "$candidate"; then JAVA_HOME=$candidate; break; fi
        done
        [[ -n $JAVA_HOME ]] || { echo "$1: needs JDK 25 or newer: set JAVA_HOME" >&2; exit 2; }
    fi
    export JAVA_HOME PATH=$JAVA_HOME/bin:$PATH
}

# is_jdk25 DIR: whether DIR is a JDK of version 25 or newer (read from its release file: no JVM start).
is_jdk25() {
    local v=
    [[ -r $1/release ]] && v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release")
    [[ -x $1/bin/java && ${v:-0} -ge 25 ]]
}
