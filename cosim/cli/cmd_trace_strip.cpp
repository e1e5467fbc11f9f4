// `arcsim trace strip IN -o OUT`: the timing-only form of a trace (issue 16): the same
// instructions, warps, masks, addresses, gaps and launch shape, without lane values, partial
// sums or the final buffer. What `arcsim sim` needs, at about one byte per lane update for
// warp-uniform instructions (a full trace keeps 4 bytes of value per lane on top); `arcsim
// verify` refuses the result. The output is written atomically.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "atomic_file.h"
#include "error.h"
#include "subcommand.h"
#include "trace.h"
#include "trace_copy.h"

namespace arc::cli::cmd_trace_strip {  // named, so the unity build can batch the subcommands
namespace {

struct Options {
  std::string in, out;
};

void run(const Options& o) {
  arc::check_outputs({{"IN", o.in}}, {{"--out", o.out}});
  arc::trace::Reader r(o.in);
  arc::trace::Header h = r.header();
  if (h.timing_only) throw arc::Error(o.in + ": already a timing-only trace");
  h.timing_only = true;
  h.metadata.emplace_back("stripped_from", o.in);
  const CopyResult c = copy_records(r, h, o.out, false);
  std::cout << fmt::format("wrote {}: timing-only, {} instructions, {} lane updates, {} bytes ({:.3f} bytes per lane update)\n",
                           o.out, c.instructions, c.lane_updates, c.bytes,
                           c.lane_updates ? static_cast<double>(c.bytes) / static_cast<double>(c.lane_updates) : 0.0);
}

void setup(CLI::App& app) {
  auto* trace = app.get_subcommand("trace");  // made by cmd_trace.cpp (registered earlier)
  auto o = std::make_shared<Options>();
  auto* s = trace->add_subcommand(
      "strip",
      "Write the timing-only form of a trace: same instructions, addresses and gaps, no lane values, partial sums "
      "or final buffer (what 'arcsim sim' needs; 'arcsim verify' refuses it).");
  s->add_option("in", o->in, "trace to read")->required();
  s->add_option("-o,--out", o->out, "timing-only trace to write")->required();
  s->callback([o] { run(*o); });
}

ARCSIM_SUBCOMMAND(43, setup);

}  // namespace
}  // namespace arc::cli::cmd_trace_strip
