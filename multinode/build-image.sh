#!/usr/bin/env bash
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
# Builds the images of the multi-node tests without any container registry:
#   1. jshmem-debian:bookworm   a Debian 12 rootfs made by debootstrap (minbase), imported into Docker
#   2. jshmem-node:1            FROM 1, plus libucx0, procps, iproute2       (docker/Dockerfile)
#   3. jshmem-node-rdma:1       FROM 2, plus rdma-core, ibverbs-providers... (docker/Dockerfile.rdma)
# An image is rebuilt only when it is missing or its recipe changed (label jshmem.recipe holds the
# recipe's checksum). The rootfs tarball is cached in $JSHMEM_IMAGE_CACHE (default /var/cache/jshmem,
# else multinode/target/image-cache), so re-importing after a Docker reset skips debootstrap.
# The JDK and jshmem are not in the images: the tests bind-mount them.
# Usage: build-image.sh [--no-rdma]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)

BASE=jshmem-debian:bookworm
NODE=jshmem-node:1
RDMA=jshmem-node-rdma:1
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
build_rdma=1
[ "${1:-}" = "--no-rdma" ] && build_rdma=0

log() { echo "build-image: $*"; }

cache=${JSHMEM_IMAGE_CACHE:-/var/cache/jshmem}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
    cache=$here/target/image-cache
    mkdir -p "$cache"
fi

docker info >/dev/null 2>&1 || { log "no Docker daemon answers (run multinode/setup-docker.sh)"; exit 1; }

has_image() { docker image inspect "$1" >/dev/null 2>&1; }
recipe_of() { docker image inspect -f '{{index .Config.Labels "jshmem.recipe"}}' "$1" 2>/dev/null || true; }

# --- 1. base image from a debootstrap rootfs
if ! has_image "$BASE"; then
    tarball=$cache/debian-bookworm-minbase.tar
    if [ ! -s "$tarball" ]; then
        command -v debootstrap >/dev/null || { log "debootstrap is missing (apt-get install debootstrap)"; exit 1; }
        rootfs=$cache/rootfs-bookworm
        rm -rf "$rootfs"
        log "debootstrap --variant=minbase bookworm (about a minute)"
        start=$SECONDS
        debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$cache/debootstrap.log" 2>&1 ||
            { log "debootstrap failed; see $cache/debootstrap.log"; exit 1; }
        tar -C "$rootfs" -cf "$tarball.tmp" .
        mv "$tarball.tmp" "$tarball"
        rm -rf "$rootfs"
        log "rootfs ready in $((SECONDS - start)) s"
    fi
    log "importing $BASE"
    docker import -c 'CMD ["/bin/bash"]' "$tarball" "$BASE" >/dev/null
fi

# --- 2./3. Dockerfiles FROM it; the label records the recipe so an edited Dockerfile rebuilds.
build() { # tag dockerfile
    local tag=$1 file=$2 sum
    sum=$( (cat "$file"; docker image inspect -f '{{.Id}}' "$(sed -n 's/^FROM //p' "$file" | head -1)") | sha256sum | cut -c1-16)
    if [ "$(recipe_of "$tag")" = "$sum" ]; then
        log "$tag is up to date"
        return
    fi
    log "building $tag from $(basename "$file") (apt-get inside: about 30 s)"
    local start=$SECONDS buildlog=$cache/build-${tag%%:*}.log
    # The classic builder: no buildx plugin needed, works with Docker 20.10 (its deprecation notice
    # goes to the log with the rest).
    if ! DOCKER_BUILDKIT=0 docker build --label "jshmem.recipe=$sum" -t "$tag" -f "$file" "$here/docker" \
            >"$buildlog" 2>&1; then
        tail -n 30 "$buildlog" >&2
        log "building $tag failed; the whole log is $buildlog"
        exit 1
    fi
    log "$tag built in $((SECONDS - start)) s"
}
build "$NODE" "$here/docker/Dockerfile"
if [ $build_rdma = 1 ]; then
    build "$RDMA" "$here/docker/Dockerfile.rdma"
fi
