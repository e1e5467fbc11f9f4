#!/usr/bin/env bash
# Real Yosys synthesis of one module must report a positive, complete transistor count
# (a count ending in '+' means cells Yosys has no transistor model for: an error).
set -euo pipefail
out=$("$(dirname "$0")/../../synth/synth_module.sh" "$@")
line=$(grep 'Estimated number of transistors' <<<"$out" | tail -1)
[ -n "$line" ] || { echo "no transistor estimate in the Yosys output"; exit 1; }
count=$(awk -F: '{gsub(/ /,"",$2); print $2}' <<<"$line")
case "$count" in *+) echo "incomplete transistor count: $count"; exit 1;; esac
[ "$count" -gt 0 ] || { echo "transistor count $count is not positive"; exit 1; }
echo "$1: $count transistors"
