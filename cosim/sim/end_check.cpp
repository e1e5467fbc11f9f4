// GpuModel::check_end: the invariants every run must satisfy once the event queue is empty.
// A model bug (a lost wake-up, a dropped or duplicated request, a stuck queue) would otherwise
// end a run early or with a wrong image and still print a plausible table.
#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "error.h"
#include "fp32_ref.h"
#include "gpu_model.h"

namespace arc::sim {

namespace {

[[noreturn]] void broken(const std::string& what) { throw Error("end-of-run check failed: " + what); }

double as_double(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return static_cast<double>(f);
}

// Each word of the image against the exact (double) sum of the trace's updates to it (from
// the first pass over the trace, TraceSummary): any two summation orders of n binary32 terms
// differ from the exact sum by at most (n-1) u sum|v| (u = 2^-24, to first order; doubled for
// margin), plus n 2^-126 for flushed subnormals. A lost or duplicated update of any normal
// value breaks it. Words with a non-finite sum are skipped.
// Only words on a page some table touched: elsewhere the word, its sums and its count are all
// zero, which passes.
void check_values(const TraceSummary& t, const golden::MemoryImage& image) {
  const auto& img = image.words();
  if (t.word_sum.size() != img.size() || t.word_abs_sum.size() != img.size() || t.word_updates.size() != img.size())
    broken(fmt::format("the trace's per-word sums cover {} words, the buffer has {}", t.word_sum.size(), img.size()));
  auto check = [&](size_t w) {
    const double sum = t.word_sum.get(w), abs_sum = t.word_abs_sum.get(w);
    const uint32_t n = t.word_updates.get(w), bits = img.get(w);
    if (!std::isfinite(sum) || !std::isfinite(abs_sum) || fp::is_nan(bits)) return;
    const double got = as_double(bits);
    const double bound = 2.0 * (n ? n - 1 : 0) * 0x1.0p-24 * abs_sum + n * 0x1.0p-126;
    // A partial sum can overflow on the way to a finite total only if sum|v| is near FLT_MAX.
    const bool off = std::isinf(got) ? abs_sum < 3.0e38 : std::fabs(got - sum) > bound;
    if (off)
      broken(fmt::format("gradient word {} holds {:.9g}, but the trace's {} updates to it sum to {:.9g} (bound {:.3g}): "
                         "an update was lost or applied twice",
                         w, got, n, sum, bound));
  };
  for_each_touched_in_any(
      [&](size_t a, size_t b) {
        for (size_t w = a; w < b; ++w) check(w);
      },
      img, t.word_sum, t.word_abs_sum, t.word_updates);
}

}  // namespace

void GpuModel::check_end(const Workload& work, const TraceSummary& trace) const {
  const Stats& s = stats_;
  if (s.instructions != work.instructions)
    broken(fmt::format("{} of the trace's {} warp instructions issued: a unit stopped waking up before its work was done",
                       s.instructions, work.instructions));
  if (s.lane_updates != work.lane_updates)
    broken(fmt::format("{} lane updates issued, the trace has {}", s.lane_updates, work.lane_updates));
  if (s.rop_ops + s.lane_adds_in_core + s.lane_adds_in_buffer != s.lane_updates)
    broken(fmt::format("lane updates are not conserved: {} ROP ops + {} in-core adds + {} buffer adds != {} lane updates",
                       s.rop_ops, s.lane_adds_in_core, s.lane_adds_in_buffer, s.lane_updates));
  for (const auto& b : buffers_)
    if (!b->drained())
      broken(fmt::format("atomic buffer {} still holds {} lane updates (the end-of-run flush missed them)", b->name(),
                         b->buffered_lanes()));
  if (s.requests_to_l2 != s.rop_requests)
    broken(fmt::format("{} requests entered the crossbar but {} were performed at the ROP units", s.requests_to_l2,
                       s.rop_requests));
  for (size_t i = 0; i < subcores_.size(); ++i)
    if (!subcores_[i]->drained()) broken(fmt::format("sub-core {} still holds warps", subcores_[i]->name()));
  for (const auto& a : arcs_)
    if (!a->in.empty()) broken(fmt::format("ARC unit {} still holds an instruction", a->name()));
  for (const auto& l : lsus_)
    if (!l->drained()) broken(fmt::format("LSU {} still holds requests", l->name()));
  if (!icnt_->drained()) broken("the crossbar still holds requests");
  for (const auto& r : rops_)
    if (!r->drained()) broken(fmt::format("ROP unit {} still holds requests", r->name()));
  // Per word, what arrived against what the trace sends: words on a page neither table
  // touched have 0 and 0.
  const ZeroTable<WordState>& words = words_;
  auto conserved = [&](size_t a, size_t b) {
    for (size_t w = a; w < b; ++w)
      if (words.get(w).arrived != trace.word_updates.get(w))
        broken(fmt::format("gradient word {} received {} lane updates, the trace sends it {}", w, words.get(w).arrived,
                           trace.word_updates.get(w)));
  };
  if (trace.word_updates.size() != words.size())
    broken(fmt::format("the trace's per-word counts cover {} words, the buffer has {}", trace.word_updates.size(),
                       words.size()));
  for_each_touched_in_any(conserved, words, trace.word_updates);
  if (!trace.header.timing_only) check_values(trace, image_);
}

}  // namespace arc::sim
