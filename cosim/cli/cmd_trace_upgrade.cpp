// `arcsim trace upgrade IN -o OUT`: the same trace in this build's format version (3: with the
// warp table at its end, so `arcsim sim` places the warps without a first pass over the
// records). Every record, the header (timing-only or not) and the final buffer are kept:
// `arcsim trace compare IN OUT` says same. For traces written before version 3 (GPU captures,
// the bundled ones). The output is written atomically.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <string>

#include "atomic_file.h"
#include "error.h"
#include "subcommand.h"
#include "trace.h"
#include "trace_copy.h"

namespace arc::cli::cmd_trace_upgrade {  // named, so the unity build can batch the subcommands
namespace {

struct Options {
  std::string in, out;
};

void run(const Options& o) {
  arc::check_outputs({{"IN", o.in}}, {{"--out", o.out}});
  arc::trace::Reader r(o.in);
  if (r.version() == arc::trace::kVersion)
    throw arc::Error(fmt::format("{}: already format version {}", o.in, arc::trace::kVersion));
  const uint16_t from = r.version();
  const CopyResult c = copy_records(r, r.header(), o.out, true);
  std::cout << fmt::format("wrote {}: format version {} (was {}), {} instructions, {} bytes\n", o.out,
                           arc::trace::kVersion, from, c.instructions, c.bytes);
}

void setup(CLI::App& app) {
  auto* trace = app.get_subcommand("trace");  // made by cmd_trace.cpp (registered earlier)
  auto o = std::make_shared<Options>();
  auto* s = trace->add_subcommand(
      "upgrade",
      "Rewrite a trace in this build's format version (3: adds the warp table, so 'arcsim sim' needs no first pass "
      "over the records); every record, the header and the final buffer are kept ('trace compare' says same).");
  s->add_option("in", o->in, "trace to read (format version 1 or 2)")->required();
  s->add_option("-o,--out", o->out, "trace to write")->required();
  s->callback([o] { run(*o); });
}

ARCSIM_SUBCOMMAND(44, setup);

}  // namespace
}  // namespace arc::cli::cmd_trace_upgrade
