#!/usr/bin/env bash
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
# Prepares this machine for the multi-node tests (multinode/): installs Docker and debootstrap if
# missing, starts the Docker daemon if none answers, and builds the node images (build-image.sh).
# Needs root (apt-get, dockerd). Idempotent: quick when everything is already in place.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)

log() { echo "setup-docker: $*"; }

need=()
command -v docker >/dev/null || need+=(docker.io)
command -v dockerd >/dev/null || need+=(docker.io)
command -v debootstrap >/dev/null || need+=(debootstrap)
if [ ${#need[@]} -gt 0 ]; then
    log "installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq $(printf '%s\n' "${need[@]}" | sort -u) >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
    log "starting dockerd (log: /var/log/dockerd.log)"
    setsid dockerd >/var/log/dockerd.log 2>&1 </dev/null &
    for _ in $(seq 1 60); do
        docker info >/dev/null 2>&1 && break
        sleep 0.5
    done
    docker info >/dev/null 2>&1 || { log "dockerd did not come up; see /var/log/dockerd.log"; exit 1; }
fi
log "docker daemon $(docker info --format '{{.ServerVersion}}') is running"
# A run killed before its clean-up (a session's end) leaves its containers and bridge networks;
# the bridges' addresses then stalled Open MPI's TCP transport on this host (bench/: 16 OSHMEM PEs
# hung in shmem_init). Remove the test containers and networks over an hour old: none is a
# running test's.
docker container prune -f --filter label=org.testcontainers=true --filter until=1h >/dev/null || true
docker network prune -f --filter label=org.testcontainers=true --filter until=1h >/dev/null || true

exec "$here/build-image.sh" "$@"
