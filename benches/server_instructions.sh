#!/usr/bin/env bash
# Instructions per request of the local server's verified `PUT /v2/batch` and unverified
# `PUT /_bench/unverified` routes, counted with callgrind over one keep-alive loopback connection
# (client, server and kernel-free user space of both; N requests minus a 0-request baseline),
# and their difference. Needs valgrind.
# Usage: benches/server_instructions.sh [body bytes ...]   (default: 1024 1048576)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --example server_instructions >/dev/null
bin=target/release/examples/server_instructions
count() { # route requests size
    local out
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$1" "$2" "$3" >/dev/null 2>&1
    awk '/^summary:/ {print $2}' "$out"
    rm -f "$out"
}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 1048576)
printf '%-10s %14s %14s %14s\n' body verified unverified difference
for n in "${sizes[@]}"; do
    # Fewer requests for large bodies: the count per request is what matters.
    reqs=$(( n >= 65536 ? 10 : 200 ))
    v0=$(count verified 0 "$n"); v=$(count verified "$reqs" "$n")
    u0=$(count unverified 0 "$n"); u=$(count unverified "$reqs" "$n")
    v=$(( (v - v0) / reqs )); u=$(( (u - u0) / reqs ))
    printf '%-10s %14d %14d %14d\n' "$n" "$v" "$u" "$(( v - u ))"
done
