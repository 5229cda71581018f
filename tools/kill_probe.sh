#!/usr/bin/env bash
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
# Kills a random PE of a running job, many times, and checks whom oshrun blames.
#
#   tools/kill_probe.sh [--runs N] [--pes N] [--ucx | --shm] [--signal KILL]
#
# Each run starts `JobScenarios traffic-loop` (puts, gets, fetching atomics and barriers in a loop)
# through bin/oshrun, over UCX on two "hosts" of one machine (localhost and 127.0.0.1) by default,
# waits until every PE printed its pid, sleeps a random 0.2-2 s, sends the signal to one random PE,
# and checks that oshrun (1) names that PE as killed by the signal, (2) exits with 128+signal and
# (3) ends within 30 s. Prints one line per run and a summary line "N passed, M failed".
# Needs the build (mvn -q -DskipTests install) and, for --ucx, libucp.
set -u
cd "$(dirname "$0")/.."
runs=30 pes=4 mode=ucx sig=KILL
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --pes) pes=$2; shift 2 ;;
        --ucx) mode=ucx; shift ;;
        --shm) mode=shm; shift ;;
        --signal) sig=${2#SIG}; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "kill_probe: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
signum=$(kill -l "$sig") || { echo "kill_probe: unknown signal $sig" >&2; exit 2; }
opts=()
if [ "$mode" = ucx ]; then
    half=$((pes / 2))
    opts=(--host "localhost:$half,127.0.0.1:$((pes - half))" -x UCX_TLS=tcp,self)
fi
passed=0 failed=0
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for ((run = 1; run <= runs; run++)); do
    log=$out/run$run.log
    start=$(date +%s.%N)
    bin/oshrun -np "$pes" "${opts[@]}" --timeout 120 -cp conformance/target/classes \
        io.jshmem.conformance.JobScenarios traffic-loop 60 > "$log" 2>&1 &
    job=$!
    for _ in $(seq 300); do
        [ "$(grep -c '^PID ' "$log")" -ge "$pes" ] && grep -q '^LOOPING' "$log" && break
        sleep 0.1
    done
    victim=$((RANDOM % pes))
    pid=$(awk -v pe="$victim" '$1 == "PID" && $2 == pe { print $3 }' "$log")
    sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.2 + 1.8 * r / 32767 }')"
    if [ -z "$pid" ] || ! kill -s "$sig" "$pid" 2>/dev/null; then
        echo "run $run: PE $victim was not running (pid '${pid}'): job output:"; tail -5 "$log"
        kill "$job" 2>/dev/null; wait "$job" 2>/dev/null; failed=$((failed + 1)); continue
    fi
    wait "$job"; status=$?
    took=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
    blame=$(grep '^oshrun:' "$log" | head -1)
    if grep -q "PE $victim (pid $pid[ )].*signal $signum" "$log" && [ "$status" -eq $((128 + signum)) ]; then
        echo "run $run: PE $victim SIG$sig -> exit $status in ${took}s: $blame"
        passed=$((passed + 1))
    else
        echo "run $run: PE $victim (pid $pid) SIG$sig -> exit $status in ${took}s, WRONG: $blame"
        grep -E '^oshrun:|aborted' "$log" | head -4 | sed 's/^/    /'
        failed=$((failed + 1))
    fi
done
echo "kill_probe: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
