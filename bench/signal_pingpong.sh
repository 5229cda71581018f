#!/usr/bin/env bash
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
# UCX/TCP floor check (issue 36): per round, UCX's own active-message latency (ucx_perftest
# ucp_am_lat, 8 B, its 50th percentile) right before jshmem's 2-PE ping-pongs over UCX/TCP:
# put-with-signal as one active message (JSHMEM_UCX_PUT_SIGNAL=am), as put + fence + atomic (rma),
# and PingPongBench (p + wait_until). Prints each round's p50/p99 and the ratios to that round's
# ucx_perftest p50. Run after a build (mvn -o -q -DskipTests package); see bench/README.md.
set -euo pipefail

rounds=${1:-5}
quick=${QUICK:-}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
port=$((20000 + RANDOM % 10000))
export UCX_TLS=tcp,self UCX_NET_DEVICES=lo

perftest() {
    # Server and client on a core each, as oshrun binds the two PEs.
    taskset -c 0 ucx_perftest -t ucp_am_lat -s 8 -n 100000 -p "$port" >/dev/null 2>&1 &
    local server=$!
    sleep 1
    taskset -c 1 ucx_perftest 127.0.0.1 -t ucp_am_lat -s 8 -n 100000 -p "$port" 2>/dev/null | awk '/^Final:/ {print $3}'
    wait "$server" || true
    port=$((port + 1))
}

job() { # $1: class, rest: extra oshrun args; prints "p50 p99"
    local cls=$1
    shift
    bin/oshrun -np 2 -x SHMEM_TRANSPORT=ucx -x UCX_TLS=tcp,self "$@" -cp shmem-bench/target/classes \
        "io.jshmem.bench.$cls" $quick 2>/dev/null | awk -F, '$6=="lat_p50_us" {p50=$7} $6=="lat_p99_us" {p99=$7} END {print p50, p99}'
}

printf '%-5s %-9s | %-17s %-6s | %-17s %-6s | %-17s %-6s\n' round am_lat_p50 "signal/am p50 p99" ratio \
    "signal/rma p50 p99" ratio "p+wait p50 p99" ratio
for r in $(seq 1 "$rounds"); do
    ucx=$(perftest)
    read -r a50 a99 < <(job SignalPingPongBench -x JSHMEM_UCX_PUT_SIGNAL=am)
    read -r r50 r99 < <(job SignalPingPongBench -x JSHMEM_UCX_PUT_SIGNAL=rma)
    read -r p50 p99 < <(job PingPongBench)
    printf '%-5s %-9s | %-8s %-8s %-6s | %-8s %-8s %-6s | %-8s %-8s %-6s\n' "$r" "$ucx" "$a50" "$a99" \
        "$(awk -v a="$a50" -v u="$ucx" 'BEGIN {printf "%.2f", a / u}')" "$r50" "$r99" \
        "$(awk -v a="$r50" -v u="$ucx" 'BEGIN {printf "%.2f", a / u}')" "$p50" "$p99" \
        "$(awk -v a="$p50" -v u="$ucx" 'BEGIN {printf "%.2f", a / u}')"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
