// Running the timing model. SystemC elaborates once per process and 2.3 cannot reset its
// kernel, so one process holds one run: run_in_process() is that run, and run_isolated()
// forks a child for it and brings its result back through a pipe. The CLI and the tests run
// several modes one after another with run_isolated(); the parent never touches SystemC.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "params.h"
#include "stats.h"
#include "trace.h"
#include "trace_source.h"

namespace arc::sim {

struct RunResult {
  std::string label;     // RunSpec::label()
  Stats stats;
  ZeroTable<uint32_t> image;                         // final gradient buffer (resident only where written)
  std::vector<std::pair<uint32_t, uint32_t>> commits;  // (addr, value) in ROP commit order, if recorded
  double cpu_seconds = 0;  // CPU time of the run (workload build + elaboration + simulation + end check)
  uint64_t lookahead_peak = 0;  // streaming: most instructions read ahead of the model at once
  uint64_t lookahead_bytes_peak = 0;  // streaming: the most memory they held (packed, in chunks)
  uint64_t peak_rss_kb = 0;     // run_isolated: the child's peak resident memory
};

// A trace in memory (tests, small traces).
RunResult run_in_process(const RunSpec& spec, const trace::Trace& trace);
RunResult run_isolated(const RunSpec& spec, const trace::Trace& trace);  // throws arc::Error from the child
// A trace file, streamed: `summary` = summarize(path), made once by the caller and shared by
// every run (a forked child inherits it).
RunResult run_in_process(const RunSpec& spec, const std::string& path, const TraceSummary& summary);
RunResult run_isolated(const RunSpec& spec, const std::string& path, const TraceSummary& summary);

}  // namespace arc::sim
