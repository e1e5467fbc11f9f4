// arcsim trace import --from accelsim DIR_OR_FILE -o OUT: another tool's trace -> an ARCsim
// warp-atomic trace (timing only). Rules: cosim/import/accelsim_import.h and README.md there.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "accelsim_import.h"
#include "error.h"
#include "subcommand.h"

namespace arc::cli::cmd_trace_import {  // named, so the unity build can batch the subcommands
namespace {

struct Options {
  std::string from, out;
  arc::import::ImportOptions imp;
  bool json = false, quiet = false;
};

nlohmann::json summary_json(const Options& o, const arc::import::ImportSummary& s) {
  nlohmann::json other = nlohmann::json::object();
  uint64_t other_instr = 0;
  for (const auto& [k, v] : s.other) {
    other[k] = {{"instructions", v.instructions}, {"lane_ops", v.lane_ops}};
    other_instr += v.instructions;
  }
  return {{"from", o.from},
          {"input", o.imp.input},
          {"output", o.out},
          {"files", s.files},
          {"kernels", s.kernels},
          {"memcpy_lines_skipped", s.memcpy_lines},
          {"thread_blocks", s.thread_blocks},
          {"warps", s.warps},
          {"sass_instructions", s.sass_instructions},
          {"kept_instructions", s.kept_instructions},
          {"kept_f32", s.kept_by_width[0]},
          {"kept_f32x2", s.kept_by_width[1]},
          {"kept_f32x4", s.kept_by_width[2]},
          {"records", s.records},
          {"lane_updates", s.lane_updates},
          {"zero_mask_skipped", s.zero_mask},
          {"shared_window", s.shared_window},
          {"clamped_gaps", s.clamped_gaps},
          {"barriers_per_block", s.max_barriers},
          {"other_atomic_instructions", other_instr},
          {"other_atomics", other},
          {"address_base", fmt::format("0x{:x}", s.base_address)},
          {"buffer_words", s.buffer_words},
          {"sms", o.imp.sms},
          {"subcores_per_sm", o.imp.subcores},
          {"gap_unit", "instructions"},
          {"bytes", s.bytes}};
}

void print_text(const Options& o, const arc::import::ImportSummary& s) {
  fmt::print("input          {} ({} .traceg files, {} kernels, {} Memcpy lines skipped)\n", o.imp.input,
             s.files.size(), s.kernels.size(), s.memcpy_lines);
  fmt::print("read           {} thread blocks, {} warps, {} SASS instructions\n", s.thread_blocks, s.warps,
             s.sass_instructions);
  fmt::print("kept           {} global float atomic adds (F32 {}, F32x2 {}, F32x4 {}) -> {} records, {} lane updates\n",
             s.kept_instructions, s.kept_by_width[0], s.kept_by_width[1], s.kept_by_width[2], s.records,
             s.lane_updates);
  uint64_t other_instr = 0;
  for (const auto& [k, v] : s.other) other_instr += v.instructions;
  fmt::print("other atomics  {} instructions, not in the trace{}\n", other_instr, s.other.empty() ? "" : ":");
  for (const auto& [k, v] : s.other) fmt::print("  {:<40} {:>8} instructions {:>10} lane ops\n", k, v.instructions, v.lane_ops);
  if (s.zero_mask) fmt::print("skipped        {} float atomic adds with no active lane\n", s.zero_mask);
  fmt::print("addresses      base 0x{:x}, {} words (word = (address - base) / 4)\n", s.base_address, s.buffer_words);
  fmt::print("gaps           SASS instructions between a warp's kept atomics (gap_unit = instructions){}\n",
             s.clamped_gaps ? fmt::format(", {} clamped", s.clamped_gaps) : "");
  fmt::print("wrote          {} ({} bytes, {} SMs x {} sub-cores)\n", o.out, s.bytes, o.imp.sms, o.imp.subcores);
}

void run(Options o) {
  if (o.from != "accelsim") throw arc::Error(fmt::format("trace import: unknown --from '{}' (known: accelsim)", o.from));
  const auto s = arc::import::import_accelsim(o.imp, o.out);
  if (o.json) std::cout << summary_json(o, s).dump(2) << "\n";
  else if (!o.quiet) print_text(o, s);
}

void setup(CLI::App& app) {
  auto* trace = app.get_subcommand("trace");  // made by cmd_trace.cpp (registered earlier)
  auto o = std::make_shared<Options>();
  auto* imp = trace->add_subcommand(
      "import",
      "Convert another tool's trace into a timing-only ARCsim trace: Accel-Sim .traceg (a file, a kernelslist.g, "
      "or a folder holding kernelslist.g). Keeps global float32 atomic adds; counts every other atomic.");
  imp->add_option("--from", o->from, "source format: accelsim")->required();
  imp->add_option("input", o->imp.input, ".traceg file, kernelslist(.g) file, or folder with kernelslist.g")
      ->required();
  imp->add_option("-o,--out", o->out, "output trace file")->required();
  imp->add_option("--sms", o->imp.sms, "SMs the thread blocks are spread over (round robin)")->capture_default_str();
  imp->add_option("--subcores", o->imp.subcores, "sub-cores per SM")->capture_default_str();
  imp->add_option("--kernel", o->imp.kernel_id, "import only the kernel with this '-kernel id' (0: all, back to back)")
      ->capture_default_str();
  imp->add_option("--max-buffer-words", o->imp.max_buffer_words,
                  "largest gradient buffer (32-bit words) the kept addresses may span")
      ->capture_default_str();
  imp->add_flag("--json", o->json, "print the summary as JSON");
  imp->add_flag("-q,--quiet", o->quiet, "print nothing");
  imp->callback([o] { run(*o); });
}

ARCSIM_SUBCOMMAND(41, setup);

}  // namespace
}  // namespace arc::cli::cmd_trace_import
