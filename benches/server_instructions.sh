#!/usr/bin/env bash
# Instructions per request of the local server's verified `PUT /v2/batch` and unverified
# `PUT /_bench/unverified` routes, counted with callgrind over one keep-alive loopback connection
# (client, server and kernel-free user space of both; N requests minus a 0-request baseline),
# and their difference. Needs valgrind.
# Usage: benches/server_instructions.sh [body bytes ...]   (default: 1024 1048576)
source "$(dirname "$0")/callgrind.sh"
build_example server_instructions
default_sizes "$@"
printf '%-10s %14s %14s %14s\n' body verified unverified difference
for n in "${sizes[@]}"; do
    # Fewer requests for large bodies: the count per request is what matters.
    reqs=$(( n >= 65536 ? 10 : 200 ))
    v0=$(count verified 0 "$n"); v=$(count verified "$reqs" "$n")
    u0=$(count unverified 0 "$n"); u=$(count unverified "$reqs" "$n")
    v=$(( (v - v0) / reqs )); u=$(( (u - u0) / reqs ))
    printf '%-10s %14d %14d %14d\n' "$n" "$v" "$u" "$(( v - u ))"
done
