// Trace read speed and `arcsim verify` speed with the Verilated RTL in the loop (lane updates
// per second); not a test: run `build/tests/trace/bench_trace`. The traces are generated once
// (seeded: 1M instructions for reading, 100k for verify, mixed sharing) into the temp dir.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "trace.h"
#include "tracegen.h"
#include "verify.h"

namespace {

std::string make_trace(const char* name, uint64_t instructions) {
  const std::string p = (std::filesystem::temp_directory_path() / name).string();
  arc::tracegen::GenConfig c;
  c.instructions = instructions;
  c.seed = 1;
  arc::tracegen::generate(c, p);
  return p;
}

const std::string& bench_trace_path() {
  static const std::string path = make_trace("arcsim_bench_trace.trc", 1'000'000);
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

void BM_Verify(benchmark::State& state) {
  static const std::string path = make_trace("arcsim_bench_verify.trc", 100'000);
  uint64_t lanes = 0, mismatches = 0;
  for (auto _ : state) {
    arc::verify::VerifyOptions o;
    o.trace_path = path;
    const auto r = arc::verify::verify_trace(o);
    lanes += r.lanes;
    mismatches += r.rtl_vs_golden_mismatches + r.rtl_vs_gpu_mismatches;
    state.counters["rtl_cycles_per_s"] = static_cast<double>(r.rtl_cycles) / r.seconds;
  }
  state.counters["lane_updates_per_s"] = benchmark::Counter(static_cast<double>(lanes), benchmark::Counter::kIsRate);
  state.counters["mismatches"] = static_cast<double>(mismatches);
}
BENCHMARK(BM_Verify)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
