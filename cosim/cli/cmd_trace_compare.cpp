// `arcsim trace compare A B`: are two traces the same workload? Compares, record by record, what
// a kernel computes (warp id, sequence number, active mask, parameter, every active lane's address
// and value, reduced groups and their partial sums, flags except the gap's) and ignores what the
// GPU decides at run time: SM and sub-core placement, compute gaps, the final buffer (atomic
// order) and metadata. Issue 23: two captures of a deterministic kernel must compare equal.
// Exit 0 when equal, 1 with the first difference named, 2 on bad input: both files are read and
// checked to their ends (every block, the end block, nothing after it) before either answer.
#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "error.h"
#include "subcommand.h"
#include "trace.h"

namespace arc::cli::cmd_trace_compare {  // named, so the unity build can batch the subcommands
namespace {

struct Options {
  std::string a, b;
};

std::string diff(const arc::trace::Instr& x, const arc::trace::Instr& y) {
  if (x.warp != y.warp) return fmt::format("warp {} vs {}", x.warp, y.warp);
  if (x.seq != y.seq) return fmt::format("seq {} vs {}", x.seq, y.seq);
  if (x.active_mask != y.active_mask) return fmt::format("active mask {:08x} vs {:08x}", x.active_mask, y.active_mask);
  if (x.param != y.param || x.nparams != y.nparams)
    return fmt::format("param {}/{} vs {}/{}", x.param, x.nparams, y.param, y.nparams);
  if (x.reduced_mask != y.reduced_mask) return fmt::format("reduced groups {:08x} vs {:08x}", x.reduced_mask, y.reduced_mask);
  const uint32_t flags = ~arc::trace::kFlagGapClamped;
  if ((x.flags & flags) != (y.flags & flags)) return fmt::format("flags {} vs {}", x.flags, y.flags);
  for (int l = 0; l < arc::trace::kLanes; ++l) {
    if (!(x.active_mask >> l & 1)) continue;
    if (x.addr[l] != y.addr[l]) return fmt::format("lane {} address {} vs {}", l, x.addr[l], y.addr[l]);
    if (x.value[l] != y.value[l]) return fmt::format("lane {} value {:08x} vs {:08x}", l, x.value[l], y.value[l]);
    if ((x.reduced_mask >> l & 1) && x.partial_sum[l] != y.partial_sum[l])
      return fmt::format("lane {} partial sum {:08x} vs {:08x}", l, x.partial_sum[l], y.partial_sum[l]);
  }
  return "";
}

void run(const Options& o) {
  arc::trace::Reader a(o.a), b(o.b);
  if (a.header().buffer_words != b.header().buffer_words)
    throw arc::Error(fmt::format("trace compare: gradient buffers differ: {} vs {} words", a.header().buffer_words,
                                 b.header().buffer_words));
  arc::trace::Instr x, y;
  uint64_t n = 0, lanes = 0;
  // Both files are read to their ends (Reader::next checks everything after the records too,
  // a version-3 file's warp table against its records included) before any answer: a
  // corrupt file is an error (exit 2), never SAME or DIFFER.
  const auto next_a = [&] { return a.next(x); };
  const auto next_b = [&] { return b.next(y); };
  const auto differ = [&](const std::string& what) {
    while (next_a()) {
    }
    while (next_b()) {
    }
    std::cout << what;
    std::exit(1);
  };
  for (;; ++n) {
    const bool more_a = next_a(), more_b = next_b();
    if (!more_a && !more_b) break;
    if (more_a != more_b)
      differ(fmt::format("DIFFER: {} ends after {} instructions, the other goes on\n", more_a ? o.b : o.a, n));
    if (const std::string d = diff(x, y); !d.empty()) differ(fmt::format("DIFFER at instruction {}: {}\n", n, d));
    lanes += static_cast<uint64_t>(__builtin_popcount(x.active_mask));
  }
  std::cout << fmt::format("SAME: {} instructions, {} lane updates: warps, masks, addresses, values and partial sums "
                           "agree (placement, gaps, final buffer and metadata not compared)\n",
                           n, lanes);
}

void setup(CLI::App& app) {
  auto* trace = app.get_subcommand("trace");  // made by cmd_trace.cpp (registered earlier)
  auto o = std::make_shared<Options>();
  auto* cmp = trace->add_subcommand(
      "compare",
      "Are two traces the same workload? Compares every instruction's warp, sequence, mask, addresses, values and "
      "partial sums; ignores SM/sub-core placement, gaps, final buffer and metadata. Exit 0 same, 1 differ.");
  cmp->add_option("a", o->a, "first trace")->required();
  cmp->add_option("b", o->b, "second trace")->required();
  cmp->callback([o] { run(*o); });
}

ARCSIM_SUBCOMMAND(42, setup);

}  // namespace
}  // namespace arc::cli::cmd_trace_compare
