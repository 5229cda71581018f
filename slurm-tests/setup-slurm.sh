#!/usr/bin/env bash
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
# setup-slurm.sh: installs (if needed) and starts munge, slurmctld and two slurmd "nodes" on this
# machine, for the jshmem slurm-tests module. Idempotent: running it again leaves running daemons
# alone and only (re)starts what is missing. Needs root.
#
#   slurm-tests/setup-slurm.sh            # install + start (two-node configuration, the default)
#   slurm-tests/setup-slurm.sh --single   # one slurmd named after the host (slurm.conf.single)
#   slurm-tests/setup-slurm.sh --stop     # stop slurmd(s), slurmctld (munged is left running)
#   slurm-tests/setup-slurm.sh --no-install  # never call apt-get (fail if Slurm is missing)
#
# The two-node configuration (nodes n1 and n2, both on this host, slurmd ports 17001/17002) serves
# every test: one-node jobs use `srun -N 1`, cross-node jobs `srun -N 2`. It is generated from
# /work/shared/notes/slurm.conf.two-nodes with this machine's hostname and core count, plus
# TmpFS=/tmp/slurm-%n (the pmix plugin's per-step client directory would otherwise collide
# between the two slurmd of one machine) and KillWait=5 (faster ends of killed steps).
set -euo pipefail

mode=two-nodes
install=yes
for arg in "$@"; do
    case $arg in
        --single) mode=single ;;
        --two-nodes) mode=two-nodes ;;
        --stop) mode=stop ;;
        --no-install) install=no ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "setup-slurm.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done

log() { echo "setup-slurm: $*" >&2; }
[[ $(id -u) -eq 0 ]] || { log "must run as root"; exit 1; }

conf_dir=/etc/slurm
conf=$conf_dir/slurm.conf
host=$(hostname -s)
cpus=$(nproc)

stop_slurm() {
    local f
    for f in /run/slurm/slurmd*.pid /run/slurm/slurmctld.pid; do
        [[ -f $f ]] || continue
        local pid
        pid=$(cat "$f" 2>/dev/null || true)
        if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
            log "stopping $(basename "$f" .pid) (pid $pid)"
            kill "$pid" || true
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        fi
        rm -f "$f"
    done
}

if [[ $mode == stop ]]; then
    stop_slurm
    exit 0
fi

# ---- packages
need=()
command -v slurmctld >/dev/null || need+=(slurm-wlm)
[[ -e /usr/lib/x86_64-linux-gnu/libpmi2.so.0 || -e /usr/lib/$(uname -m)-linux-gnu/libpmi2.so.0 ]] || need+=(libpmi2-0)
ldconfig -p | grep -q 'libpmix\.so\.2 ' || need+=(libpmix2)
# Slurm's mpi/pmix plugin dlopens the unversioned libpmix.so, which only the -dev package has; a
# slurmd started without it has no pmix plugin, and its `srun --mpi=pmix` steps hang.
[[ -e /usr/lib/$(uname -m)-linux-gnu/libpmix.so ]] || need+=(libpmix-dev)
if ((${#need[@]})); then
    [[ $install == yes ]] || { log "missing packages: ${need[*]} (run without --no-install)"; exit 1; }
    log "installing ${need[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" >/tmp/setup-slurm-apt.log 2>&1 || {
        DEBIAN_FRONTEND=noninteractive apt-get update >/dev/null 2>&1
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" >/tmp/setup-slurm-apt.log 2>&1 ||
            { log "apt-get install failed; see /tmp/setup-slurm-apt.log"; exit 1; }
    }
fi

# ---- configuration (generated; rewritten only when it changes)
node_line="CPUs=$cpus Boards=1 SocketsPerBoard=1 CoresPerSocket=$cpus ThreadsPerCore=1"
common="ClusterName=jshmem
SlurmctldHost=$host
SlurmUser=slurm
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SlurmctldPidFile=/run/slurm/slurmctld.pid
StateSaveLocation=/var/lib/slurm/slurmctld
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldLogFile=/var/log/slurm/slurmctld.log
KillWait=5
MessageTimeout=20"
if [[ $mode == single ]]; then
    wanted="$common
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$host $node_line RealMemory=4000 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP"
    nodes=("")
else
    wanted="$common
SlurmdPidFile=/run/slurm/slurmd-%n.pid
SlurmdSpoolDir=/var/lib/slurm/slurmd/%n
SlurmdLogFile=/var/log/slurm/slurmd-%n.log
TmpFS=/tmp/slurm-%n
NodeName=n[1-2] NodeHostname=$host Port=[17001-17002] $node_line RealMemory=4000 State=UNKNOWN
PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=INFINITE State=UP"
    nodes=(n1 n2)
    # srun --mpi=pmix makes <TmpFS>/spmix_appdir_<job>.<step> on every node: one TmpFS per slurmd.
    mkdir -p /tmp/slurm-n1 /tmp/slurm-n2
    chmod 1777 /tmp/slurm-n1 /tmp/slurm-n2
fi
mkdir -p "$conf_dir"
if [[ ! -f $conf ]] || [[ "$(cat "$conf")" != "$wanted" ]]; then
    log "writing $conf ($mode)"
    stop_slurm   # daemons of another configuration would not match
    printf '%s\n' "$wanted" >"$conf"
fi

# ---- munge
install -d -o munge -g munge -m 0755 /run/munge
if [[ ! -s /etc/munge/munge.key ]]; then
    log "creating /etc/munge/munge.key"
    (umask 077; dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null)
    chown munge:munge /etc/munge/munge.key
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    log "starting munged"
    runuser -u munge -- /usr/sbin/munged
    for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
fi

# ---- slurmctld, slurmd
mkdir -p /run/slurm /var/lib/slurm/slurmd /var/lib/slurm/slurmctld /var/log/slurm
chown slurm /run/slurm /var/lib/slurm/slurmctld /var/log/slurm

running() { [[ -f $1 ]] && kill -0 "$(cat "$1" 2>/dev/null)" 2>/dev/null; }

if ! running /run/slurm/slurmctld.pid; then
    log "starting slurmctld"
    slurmctld
fi
for _ in $(seq 100); do scontrol ping >/dev/null 2>&1 && break; sleep 0.2; done
scontrol ping >/dev/null 2>&1 || { log "slurmctld does not answer; see /var/log/slurm/slurmctld.log"; exit 1; }

# A slurmd that could not load the PMIx library when it started (libpmix.so installed after it, as
# on a fresh machine before this script installed libpmix-dev) says so in its log: restart it.
for n in "${nodes[@]}"; do
    pidf=/run/slurm/slurmd${n:+-$n}.pid
    logf=/var/log/slurm/slurmd-${n:-$host}.log
    running "$pidf" && [[ -f $logf ]] || continue
    since=$(grep -n 'slurmd version .* started' "$logf" | tail -1 | cut -d: -f1)
    if tail -n +"${since:-1}" "$logf" | grep -q 'can not load PMIx library'; then
        log "restarting slurmd ${n:-$host}: it started without the PMIx library"
        pid=$(cat "$pidf")
        kill "$pid" || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        rm -f "$pidf"
    fi
done
for n in "${nodes[@]}"; do
    if [[ -z $n ]]; then
        running /run/slurm/slurmd.pid || { log "starting slurmd"; slurmd; }
    else
        mkdir -p "/var/lib/slurm/slurmd/$n"
        running "/run/slurm/slurmd-$n.pid" || { log "starting slurmd -N $n"; slurmd -N "$n"; }
    fi
done

# Nodes left DOWN/DRAIN by an earlier unclean stop: resume them.
names=$( [[ $mode == single ]] && echo "$host" || echo "n[1-2]" )
for _ in $(seq 100); do
    state=$(sinfo -h -N -o '%N %t' 2>/dev/null || true)
    if grep -Eq ' (down|drain|drng|fail)' <<<"$state"; then
        scontrol update nodename="$names" state=resume 2>/dev/null || true
    fi
    if [[ -n $state ]] && ! grep -Evq ' (idle|mix|alloc)$' <<<"$state"; then
        log "ready ($mode): $(tr '\n' ' ' <<<"$state")"
        exit 0
    fi
    sleep 0.3
done
log "nodes not ready: $(tr '\n' ' ' <<<"$state"); see /var/log/slurm/"
exit 1
