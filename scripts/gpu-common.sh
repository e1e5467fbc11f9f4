# Sourced by scripts/gpu-bench.sh, gpu-bench-methods.sh, gpu-bench-issue20.sh, gpu-train.sh and gpu-microbench-count.sh: what they share.
# Needs $root (the checkout) set by the caller.

# gpu_sw_build TARGET...: configure build-gpu/ ($ARCSIM_BUILD_DIR) for sm_90 only and build the
# targets; the binaries land in $GPU_BUILD/sw/. Exits the caller on failure.
gpu_sw_build() {
  GPU_BUILD=${ARCSIM_BUILD_DIR:-$root/build-gpu}
  cmake -S "$root" -B "$GPU_BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DARCSIM_SW_CHECK_ARCHS= || exit 1
  cmake --build "$GPU_BUILD" --target "$@" -j "${ARCSIM_JOBS:-$(nproc)}" || exit 1
}

# The GPU as found (clocks are read, never set).
GPU_QUERY=name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,temperature.gpu
# gpu_record_before FILE LABEL: start FILE with a headed nvidia-smi snapshot.
gpu_record_before() {
  { echo "# nvidia-smi --query-gpu=$GPU_QUERY ($2)"; nvidia-smi --query-gpu=$GPU_QUERY --format=csv; } > "$1" 2>&1
}
# gpu_record_after FILE HEADING: append a snapshot without the CSV header.
gpu_record_after() {
  { echo "$2"; nvidia-smi --query-gpu=$GPU_QUERY --format=csv,noheader; } >> "$1" 2>&1
}
# gpu_smi FIELD: one nvidia-smi field of the first GPU.
gpu_smi() { nvidia-smi --query-gpu="$1" --format=csv,noheader 2>/dev/null | head -1 | sed 's/^ *//'; }
