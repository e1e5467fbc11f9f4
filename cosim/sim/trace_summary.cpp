// summarize(): the first pass over a trace (trace_source.h).
#include <memory>
#include <optional>

#include "batch_worker.h"
#include "prefetch.h"
#include "proc.h"
#include "summarizer.h"

namespace arc::sim {

using detail::Summarizer;

namespace {

// A timing-only trace's first pass, a call at a time: a worker thread reads and checks whole
// records (Reader::next_call, no per-param copies), this one adds them up.
TraceSummary summarize_calls(trace::Reader& reader) {
  struct Call {
    trace::Instr in0;
    uint32_t n = 1;
    int64_t stride = 0;
  };
  struct Batch {
    std::vector<Call> calls;
    size_t n = 0;
  };
  constexpr size_t kBatch = 2048;
  Summarizer s(reader.header());
  {
    trace::BatchWorker<Batch> worker(
        4, [] { return Batch{std::vector<Call>(kBatch), 0}; },
        [&](Batch& b) {
          b.n = 0;
          while (b.n < kBatch) {
            Call& c = b.calls[b.n];
            const trace::Instr* in = reader.next_call(c.n, c.stride);
            if (!in) return false;
            c.in0 = *in;
            ++b.n;
          }
          return true;
        });
    while (Batch* b = worker.next())
      for (size_t k = 0; k < b->n; ++k) s.add_call(b->calls[k].in0, b->calls[k].n, b->calls[k].stride);
  }
  return s.take();
}

}  // namespace

TraceSummary summarize(const std::string& path, bool use_table) {
  const double t0 = process_cpu_seconds();
  TraceSummary out;
  auto reader = std::make_unique<trace::Reader>(path);  // the header (errors name the file)
  std::optional<trace::WarpTable> table;
  if (use_table) table = reader->warp_table();
  if (table) {
    out.header = reader->header();
    out.from_table = true;
    out.instructions = table->instructions;
    out.lane_updates = table->lanes;
    out.warps.reserve(table->warps.size());
    for (const trace::WarpEntry& e : table->warps)
      out.warps.push_back({e.sm, e.subcore, e.warp, e.instructions, e.gap_sum + e.instructions});
  } else if (reader->header().timing_only) {
    out = summarize_calls(*reader);
  } else {
    reader.reset();  // a full trace: instruction by instruction (each param has its own values)
    trace::PrefetchReader r(path);  // decodes on a second thread
    Summarizer s(r.header());
    uint64_t i = 0;
    for (const trace::Instr* in = r.next(); in; in = r.next()) s.add(*in, i++);
    out = s.take();
  }
  out.scan_seconds = process_cpu_seconds() - t0;
  return out;
}

TraceSummary summarize(const trace::Trace& t) {
  const double t0 = process_cpu_seconds();
  Summarizer s(t.header);
  for (size_t i = 0; i < t.instrs.size(); ++i) s.add(t.instrs[i], i);
  TraceSummary out = s.take();
  out.scan_seconds = process_cpu_seconds() - t0;
  return out;
}

}  // namespace arc::sim
