#!/usr/bin/env bash
# Instructions per call of `sign` and of a bare HMAC-SHA384 over the same canonical bytes, counted
# with callgrind (20 calls minus a 0-call baseline), and their ratio. Needs valgrind.
# Usage: benches/sign_instructions.sh [body bytes ...]   (default: 1024 1048576)
source "$(dirname "$0")/callgrind.sh"
build_example sign_instructions
default_sizes "$@"
printf '%-10s %14s %14s %8s\n' body sign bare ratio
for n in "${sizes[@]}"; do
    s0=$(count sign 0 "$n"); s20=$(count sign 20 "$n")
    b0=$(count bare 0 "$n"); b20=$(count bare 20 "$n")
    s=$(( (s20 - s0) / 20 )); b=$(( (b20 - b0) / 20 ))
    printf '%-10s %14d %14d %8s\n' "$n" "$s" "$b" "$(awk -v s="$s" -v b="$b" 'BEGIN {printf "%.4f", s / b}')"
done
