// arcsim trace info | gen: characterize a warp-atomic trace (paper section 3.1) and write
// seeded synthetic ones. Format: cosim/trace/FORMAT.md.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <iostream>
#include <nlohmann/json.hpp>

#include "atomic_file.h"
#include "error.h"
#include "options.h"
#include "proc.h"
#include "progress.h"
#include "trace_stats.h"
#include "subcommand.h"
#include "tracegen.h"

namespace arc::cli::cmd_trace {  // named, so the unity build can batch the subcommands
namespace {

struct InfoOptions {
  std::string file;
  bool json = false;
  std::string plot;
};

nlohmann::json header_json(const arc::trace::Header& h) {
  nlohmann::json meta = nlohmann::json::object();
  for (const auto& [k, v] : h.metadata) meta[k] = v;
  return {{"gpu_name", h.gpu_name},
          {"sm_count", h.sm_count},
          {"subcores_per_sm", h.subcores_per_sm},
          {"kernel_name", h.kernel_name},
          {"method", arc::trace::method_name(h.method)},
          {"balancing_threshold", h.balancing_threshold},
          {"scene_generator", h.scene_generator},
          {"scene_seed", h.scene_seed},
          {"buffer_words", h.buffer_words},
          {"reduce_ftz", h.reduce_ftz},
          {"gap_unit", h.gap_unit == arc::trace::GapUnit::Cycles ? "cycles" : "instructions"},
          {"timing_only", h.timing_only},
          {"launch", {{"grid_blocks", h.grid_blocks},
                      {"threads_per_block", h.threads_per_block},
                      {"resident_warps_per_sm", h.resident_warps_per_sm},
                      {"barriers_per_block", h.barriers_per_block}}},
          {"metadata", meta}};
}

nlohmann::json stats_json(const std::string& file, const arc::trace::TraceStats& s) {
  return {{"file", file},
          {"format_version", s.version},
          {"header", header_json(s.header)},
          {"calls", s.calls},
          {"instructions", s.instructions},
          {"lanes", s.lanes},
          {"warps", s.warps},
          {"sms", s.sms},
          {"all_same_address_instructions", s.all_same},
          {"all_same_address_fraction", s.all_same_fraction()},
          {"reduced_groups", s.reduced_groups},
          {"reduced_lanes", s.reduced_lanes},
          {"pair_send_instructions", s.pair_sends},
          {"pair_call_plain_instructions", s.pair_plain},
          {"file_bytes", s.file_bytes},
          {"bytes_per_lane_update", s.bytes_per_lane()},
          {"final_buffer_nonzero_words", s.buffer_nonzero},
          {"gap_sum", s.gap_sum},
          {"gap_max", s.gap_max},
          {"gap_log2_histogram", s.gap_hist},
          {"active_lane_histogram", s.active_hist},
          {"distinct_address_histogram", s.distinct_hist}};
}

void print_hist(const char* title, const std::array<uint64_t, 33>& h, uint64_t total) {
  fmt::print("{}\n", title);
  for (size_t n = 0; n < h.size(); ++n)
    if (h[n]) fmt::print("  {:>2}: {:>12}  {:6.2f} %\n", n, h[n], 100.0 * static_cast<double>(h[n]) / static_cast<double>(total));
}

// scripts/plot_trace_info.py draws into a temporary PNG that is renamed when complete; a failure
// is one line (its traceback in the log run_script names).
void plot(const nlohmann::json& j, const std::string& out) {
  arc::AtomicFile png(out);
  arc::run_script(arc::python_exe(ARCSIM_PYTHON), ARCSIM_PLOT_TRACE_INFO, {png.temp_path()},
                  "--plot " + out + ": scripts/plot_trace_info.py", j.dump());
  png.commit();
}

void run_info(const InfoOptions& o) {
  arc::check_outputs({{"trace", o.file}}, {{"--plot", o.plot}});
  // matplotlib picks the format by the extension: name one it writes, before the trace is read.
  if (!o.plot.empty()) {
    const std::string ext = std::filesystem::path(o.plot).extension().string();
    if (ext != ".png" && ext != ".pdf" && ext != ".svg")
      throw arc::Error("--plot " + o.plot + ": name a .png, .pdf or .svg file (the format follows the extension)");
  }
  std::error_code ec;
  const auto size = std::filesystem::file_size(o.file, ec);
  arc::Progress bar("reading (bytes)", ec ? 0 : size, !o.json);
  const auto s = arc::trace::compute_stats(o.file, [&](uint64_t n, uint64_t) { bar.update(n); });
  bar.finish();
  auto j = stats_json(o.file, s);
  // Version 3: the warp table the simulator places warps by (no first pass over the records).
  const std::optional<arc::trace::WarpTable> table = arc::trace::Reader(o.file).warp_table();
  j["warp_table_warps"] = table ? nlohmann::json(table->warps.size()) : nlohmann::json(nullptr);
  if (!o.plot.empty()) plot(j, o.plot);
  if (o.json) {
    std::cout << j.dump(2) << "\n";
    return;
  }
  const auto& h = s.header;
  fmt::print("trace          {} (format version {}, {} bytes{})\n", o.file, s.version, s.file_bytes,
             h.timing_only ? ", timing-only: no values" : "");
  fmt::print("gpu            {}, {} SMs x {} sub-cores\n", h.gpu_name, h.sm_count, h.subcores_per_sm);
  fmt::print("kernel         {}, method {}, balancing threshold {}, partial sums FTZ={}\n", h.kernel_name,
             arc::trace::method_name(h.method), h.balancing_threshold, h.reduce_ftz);
  fmt::print("scene          {} seed {}\n", h.scene_generator, h.scene_seed);
  fmt::print("buffer         {} words ({} nonzero at the end)\n", h.buffer_words, s.buffer_nonzero);
  if (h.grid_blocks || h.threads_per_block || h.resident_warps_per_sm)
    fmt::print("launch         {} blocks x {} threads, {} resident warps per SM, {} barriers per block\n",
               h.grid_blocks, h.threads_per_block, h.resident_warps_per_sm, h.barriers_per_block);
  else
    fmt::print("launch         unknown (not recorded in this trace)\n");
  for (const auto& [k, v] : h.metadata) fmt::print("meta           {} = {}\n", k, v);
  fmt::print("instructions   {} in {} calls\n", s.instructions, s.calls);
  fmt::print("lane updates   {} ({:.2f} per instruction)\n", s.lanes,
             s.instructions ? static_cast<double>(s.lanes) / static_cast<double>(s.instructions) : 0.0);
  fmt::print("warps          {} on {} SMs\n", s.warps, s.sms);
  if (table) fmt::print("warp table     {} warps listed (the simulator needs no first pass)\n", table->warps.size());
  else fmt::print("warp table     none (format version {}: the simulator makes a first pass)\n", s.version);
  fmt::print("one address    {:.2f} % of instructions have all active lanes on one address\n",
             100 * s.all_same_fraction());
  fmt::print("GPU-reduced    {} address groups ({} lanes)\n", s.reduced_groups, s.reduced_lanes);
  if (s.pair_sends || s.pair_plain)
    fmt::print("pair calls     {} instructions of Adaptive's pair send (flag bit 7), {} of pair calls' plain records "
               "(bit 8: adaptive mode regroups them)\n",
               s.pair_sends, s.pair_plain);
  fmt::print("size           {:.3f} bytes per lane update\n", s.bytes_per_lane());
  const char* unit = h.gap_unit == arc::trace::GapUnit::Cycles ? "cycles" : "instructions";
  fmt::print("gaps           {:.1f} {} per call on average ({:.0f} per warp), largest {}\n",
             s.calls ? static_cast<double>(s.gap_sum) / static_cast<double>(s.calls) : 0.0, unit,
             s.warps ? static_cast<double>(s.gap_sum) / static_cast<double>(s.warps) : 0.0, s.gap_max);
  print_hist("active lanes per instruction:", s.active_hist, s.instructions);
  print_hist("distinct addresses per instruction:", s.distinct_hist, s.instructions);
  fmt::print("gap per call, by power of two ({}):\n", unit);
  for (size_t b = 0; b < s.gap_hist.size(); ++b)
    if (s.gap_hist[b])
      fmt::print("  {:>10}..{:<10} {:>12}  {:6.2f} %\n", b ? (uint64_t{1} << (b - 1)) : 0, b ? (uint64_t{1} << b) - 1 : 0,
                 s.gap_hist[b], 100.0 * static_cast<double>(s.gap_hist[b]) / static_cast<double>(s.calls));
  if (!o.plot.empty()) fmt::print("plot           {}\n", o.plot);
}

struct GenOptions {
  std::string out;
  arc::tracegen::GenConfig cfg;
  std::string activity = "bernoulli", sharing = "mix", method = "sw-s";
  int ftz = 0;
  uint32_t block_records = arc::trace::WriterOptions{}.records_per_block;
  bool quiet = false;
};

void run_gen(GenOptions o) {
  o.cfg.activity = arc::tracegen::activity_from_name(o.activity);
  o.cfg.sharing = arc::tracegen::sharing_from_name(o.sharing);
  o.cfg.method = arc::trace::method_from_name(o.method);
  o.cfg.reduce_ftz = o.ftz ? arc::fp::FtzMode::Flush : arc::fp::FtzMode::Keep;
  arc::trace::WriterOptions wo;
  wo.records_per_block = o.block_records;
  arc::Progress bar("generating", o.cfg.instructions, !o.quiet);
  const auto r = arc::tracegen::generate(o.cfg, o.out, wo, [&](uint64_t n) { bar.update(n); });
  bar.finish();
  if (!o.quiet)
    fmt::print("wrote {}: {} instructions, {} lane updates, {} GPU-reduced groups, {} bytes ({:.3f} bytes per lane "
               "update), seed {}\n",
               o.out, r.instructions, r.lanes, r.reduced_groups, r.bytes,
               r.lanes ? static_cast<double>(r.bytes) / static_cast<double>(r.lanes) : 0.0, o.cfg.seed);
}

// The range of a generator flag, from arc::tracegen::gen_flags() (shared with sweep specs).
CLI::Validator gen_check(const char* flag) {
  const auto& f = arc::tracegen::gen_flag(flag);
  if (f.kind == arc::tracegen::GenFlag::Real) return arc::cli::real_in(f.min, f.max);
  return arc::cli::count_in(static_cast<uint64_t>(f.min), arc::tracegen::count_max(f));
}

void setup(CLI::App& app) {
  auto* trace = app.add_subcommand("trace", "Warp-atomic traces: characterize (info), generate (gen), import, compare, strip to timing-only, upgrade the format.");
  trace->require_subcommand(1);

  auto io = std::make_shared<InfoOptions>();
  auto* info = trace->add_subcommand(
      "info", "Counts, active-lane and distinct-address histograms, all-lanes-one-address fraction, bytes per lane.");
  info->add_option("file", io->file, "trace file")->required();
  info->add_flag("--json", io->json, "print JSON instead of text");
  info->add_option("--plot", io->plot, "also draw the two histograms into this PNG (scripts/plot_trace_info.py)")
      ->check(arc::cli::nonempty());
  info->callback([io] { run_info(*io); });

  auto go = std::make_shared<GenOptions>();
  auto& c = go->cfg;
  auto* gen = trace->add_subcommand("gen", "Write a seeded synthetic trace (same flags + seed = identical file).");
  gen->add_option("-o,--out", go->out, "output trace file")->required();
  gen->add_option("-n,--instructions", c.instructions, "warp-level atomic instructions")
      ->transform(gen_check("instructions"))
      ->capture_default_str();
  gen->add_option("--seed", c.seed, "generator seed (std::mt19937_64), recorded in the header")
      ->transform(gen_check("seed"))
      ->capture_default_str();
  gen->add_option("--sms", c.sms, "SMs")
      ->transform(gen_check("sms"))
      ->capture_default_str();
  gen->add_option("--sm-ids", c.sm_ids,
                  "the id of each of the --sms SMs, comma-separated (default 0..sms-1): e.g. where a GPU placed a "
                  "launch's blocks (the header's SM count becomes the largest id + 1)")
      ->delimiter(',')
      ->check(arc::cli::nonempty());
  gen->add_option("--subcores", c.subcores_per_sm, "sub-cores per SM")
      ->transform(gen_check("subcores"))
      ->capture_default_str();
  gen->add_option("--warps-per-subcore", c.warps_per_subcore, "warps per sub-core")
      ->transform(gen_check("warps-per-subcore"))
      ->capture_default_str();
  gen->add_option("--buffer-words", c.buffer_words, "gradient buffer length (float words)")
      ->transform(gen_check("buffer-words"))
      ->capture_default_str();
  gen->add_option("--activity", go->activity,
                  "active lanes: full, bernoulli (--lane-prob), uniform (count 1..32), first (lanes 0..--active - 1)")
      ->check(CLI::IsMember({"full", "bernoulli", "uniform", "first"}))
      ->capture_default_str();
  gen->add_option("--active", c.active, "first: active lanes per instruction")
      ->transform(gen_check("active"))
      ->capture_default_str();
  gen->add_option("--lane-prob", c.lane_prob, "bernoulli: probability a lane is active")
      ->transform(gen_check("lane-prob"))
      ->capture_default_str();
  gen->add_option("--sharing", go->sharing,
                  "addresses: same, k (<= --k distinct), distinct, pool (--pool consecutive words), mix "
                  "(same with --p-same, else k), line (lane l on word l % k of one random 128-byte line), strided "
                  "(lane l of warp w on word w x --region-stride + (l mod --k) x --lane-stride: a microbenchmark's layout)")
      ->check(CLI::IsMember({"same", "k", "distinct", "pool", "mix", "line", "strided"}))
      ->capture_default_str();
  gen->add_option("--k", c.k, "k: addresses per instruction")
      ->transform(gen_check("k"))
      ->capture_default_str();
  gen->add_option("--pool", c.pool, "pool: consecutive words per instruction")
      ->transform(gen_check("pool"))
      ->capture_default_str();
  gen->add_option("--region-stride", c.region_stride, "strided: words between consecutive warps' regions")
      ->transform(gen_check("region-stride"))
      ->capture_default_str();
  gen->add_option("--lane-stride", c.lane_stride, "strided: words between consecutive lanes")
      ->transform(gen_check("lane-stride"))
      ->capture_default_str();
  gen->add_option("--p-same", c.p_same, "mix: probability all lanes share one address")
      ->transform(gen_check("p-same"))
      ->capture_default_str();
  gen->add_option("--sigma", c.value_sigma, "values ~ normal(0, sigma)")
      ->transform(gen_check("sigma"))
      ->capture_default_str();
  gen->add_option("--special-prob", c.special_prob, "probability a value is a subnormal, inf or NaN")
      
      ->transform(gen_check("special-prob"))
      ->capture_default_str();
  gen->add_option("--gap-mean", c.gap_mean, "mean compute gap between a warp's atomics (cycles)")
      
      ->transform(gen_check("gap-mean"))
      ->capture_default_str();
  gen->add_option("--method", go->method, "what the 'GPU' did: baseline, sw-s (serial group sums) or sw-b (butterfly)")
      ->check(CLI::IsMember({"baseline", "sw-s", "sw-b"}))
      ->capture_default_str();
  gen->add_option("--threshold", c.threshold, "sw-s/sw-b: groups of >= this many (and > 1) lanes are reduced")
      ->transform(gen_check("threshold"))
      ->capture_default_str();
  gen->add_option("--ftz", go->ftz, "FTZ mode of the 'GPU' partial sums: 0 (no -ftz) or 1")
      ->check(CLI::IsMember({0, 1}))
      ->capture_default_str();
  gen->add_option("--block-records", go->block_records, "records per compressed block")
      ->transform(gen_check("block-records"))
      ->capture_default_str();
  gen->add_flag("--timing-only", c.timing_only,
                "write the timing-only form: no lane values, partial sums or final buffer (smaller; 'arcsim sim' "
                "times it, 'arcsim verify' refuses it)");
  gen->add_flag("--fixed-addresses", c.fixed_addresses,
                "each warp draws its lanes' addresses once and reuses them in every instruction (as the "
                "microbenchmark kernels do); default: drawn afresh per instruction");
  gen->add_flag("-q,--quiet", go->quiet, "print nothing");
  gen->callback([go] { run_gen(*go); });
}

ARCSIM_SUBCOMMAND(40, setup);

}  // namespace
}  // namespace arc::cli::cmd_trace
