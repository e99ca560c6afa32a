# Shared by the *_instructions.sh scripts (sourced, not run): build an instruction-counting
# example and count what one run of it executes under callgrind. Needs valgrind.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Build `examples/$1.rs` in the `profiling` profile (the release code with symbols and line
# tables, Cargo.toml) and set `bin` to it.
build_example() {
    cargo build --profile profiling --example "$1" >/dev/null
    bin="target/profiling/examples/$1"
}

# Instructions executed by one run of `$bin` with these arguments.
count() {
    local out
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$@" >/dev/null 2>&1
    awk '/^summary:/ {print $2}' "$out"
    rm -f "$out"
}

# The sizes given on the command line, or 1 KiB and 1 MiB.
default_sizes() {
    sizes=("$@")
    [ ${#sizes[@]} -gt 0 ] || sizes=(1024 1048576)
}
