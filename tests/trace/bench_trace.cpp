// Trace read speed (lane updates per second), not a test: `build/tests/trace/bench_trace`.
// The trace is generated once (seeded, 1M instructions, mixed sharing) into the temp dir.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "trace.h"
#include "tracegen.h"

namespace {

const std::string& bench_trace_path() {
  static const std::string path = [] {
    const std::string p = (std::filesystem::temp_directory_path() / "arcsim_bench_trace.trc").string();
    arc::tracegen::GenConfig c;
    c.instructions = 1'000'000;
    c.seed = 1;
    arc::tracegen::generate(c, p);
    return p;
  }();
  return path;
}

void BM_TraceRead(benchmark::State& state) {
  const std::string& path = bench_trace_path();
  uint64_t lanes = 0, bytes = 0;
  for (auto _ : state) {
    arc::trace::Reader r(path);
    arc::trace::Instr in;
    while (r.next(in)) benchmark::DoNotOptimize(in.value[0]);
    benchmark::DoNotOptimize(r.final_buffer().data());
    lanes += r.lanes();
    bytes = r.file_bytes();
    state.counters["bytes_per_lane_update"] = static_cast<double>(bytes) / static_cast<double>(r.lanes());
  }
  state.counters["lane_updates_per_s"] = benchmark::Counter(static_cast<double>(lanes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TraceRead)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
