#include "params.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "error.h"

namespace arc::sim {

const char* mode_name(Mode m) {
  switch (m) {
    case Mode::Baseline: return "baseline";
    case Mode::SwS: return "sw-s";
    case Mode::SwB: return "sw-b";
    case Mode::ArcHw: return "arc-hw";
  }
  return "?";
}

Mode mode_from_name(const std::string& s) {
  for (Mode m : {Mode::Baseline, Mode::SwS, Mode::SwB, Mode::ArcHw})
    if (s == mode_name(m)) return m;
  throw Error(fmt::format("--mode: unknown mode '{}' (baseline, sw-s, sw-b, arc-hw)", s));
}

const char* fidelity_name(Fidelity f) { return f == Fidelity::Rtl ? "rtl" : "fast"; }

Fidelity fidelity_from_name(const std::string& s) {
  if (s == "rtl") return Fidelity::Rtl;
  if (s == "fast") return Fidelity::Fast;
  throw Error(fmt::format("--fidelity: unknown level '{}' (rtl, fast)", s));
}

golden::SchedMode sched_from_name(const std::string& s) {
  using golden::SchedMode;
  for (SchedMode m : {SchedMode::Never, SchedMode::Always, SchedMode::Threshold, SchedMode::Dynamic})
    if (s == golden::to_string(m)) return m;
  throw Error(fmt::format("--sched: unknown scheduler mode '{}' (never, always, threshold, dynamic)", s));
}

const std::vector<KnobSpec>& sim_params() {
  using K = ModelKnobs;
  static const std::vector<KnobSpec> table = {
      {"rop_queue_depth", "requests",
       "input buffer of each ROP unit (crossbar credits); 0 = auto: max(64, 2 x (icnt_latency + 1) x "
       "icnt_eject_per_cycle), enough credits to cover the crossbar round trip",
       0, 1 << 20, &K::rop_queue_depth},
      {"rop_window", "requests",
       "how deep into its input queue a ROP unit looks for an op it may start (1 = strictly in order; "
       "an op never passes an older op on its own address)",
       1, 4096, &K::rop_window},
      {"icnt_eject_per_cycle", "flits/cycle", "flits a crossbar output port delivers to its ROP unit per cycle", 1,
       64, &K::icnt_eject_per_cycle},
      {"rop_same_addr_interval", "cycles", "minimum cycles between two atomics starting on one address", 1, 100000,
       &K::rop_same_addr_interval},
      {"rop_slice_bytes", "bytes", "address granule the ROP hash slices on", 4, 1 << 16, &K::rop_slice_bytes},
      {"lsu_busy_slack", "requests", "the LSU raises busy when fewer entries than this are free", 0, 65536,
       &K::lsu_busy_slack},
      {"sws_cycles_per_key", "cycles", "SW-S issue cycles per distinct address of a warp atomic (__match_any_sync)",
       0, 100000, &K::sws_cycles_per_key},
      {"sws_cycles_per_lane", "cycles",
       "SW-S issue cycles per lane beyond the first of its largest reduced group (serial shuffle+add chain)", 0,
       100000, &K::sws_cycles_per_lane},
  };
  return table;
}

std::string RunSpec::label() const {
  if (mode != Mode::ArcHw) return mode_name(mode);
  if (sched == golden::SchedMode::Threshold) return fmt::format("arc-hw/threshold-{}", threshold);
  return fmt::format("arc-hw/{}", golden::to_string(sched));
}

bool apply_knob(ModelKnobs& k, const std::string& kv) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos) throw Error(fmt::format("--set '{}': expected key=value", kv));
  const std::string key = kv.substr(0, eq), val = kv.substr(eq + 1);
  for (const auto& s : sim_params()) {
    if (key != s.key) continue;
    char* end = nullptr;
    const long long v = std::strtoll(val.c_str(), &end, 10);
    if (val.empty() || *end != '\0') throw Error(fmt::format("--set {}: '{}' is not an integer", key, val));
    if (v < s.min || v > s.max)
      throw Error(fmt::format("--set {}: {} is outside [{}, {}] {}", key, v, s.min, s.max, s.unit));
    k.*(s.field) = v;
    return true;
  }
  return false;
}

int64_t rop_queue_depth(const RunSpec& spec) {
  if (spec.knobs.rop_queue_depth > 0) return spec.knobs.rop_queue_depth;
  return std::max<int64_t>(64, 2 * (spec.gpu.icnt_latency + 1) * spec.knobs.icnt_eject_per_cycle);
}

void apply_set(RunSpec& spec, const std::string& kv) {
  if (!apply_knob(spec.knobs, kv)) config::apply_override(spec.gpu, kv);
}

void validate(const RunSpec& spec) {
  config::validate(spec.gpu, spec.gpu.source_file.empty() ? "config" : spec.gpu.source_file);
  if (spec.knobs.lsu_busy_slack > spec.gpu.lsu_queue_depth)
    throw Error(fmt::format("lsu_busy_slack {} exceeds lsu_queue_depth {}", spec.knobs.lsu_busy_slack,
                            spec.gpu.lsu_queue_depth));
  if (spec.knobs.rop_slice_bytes & (spec.knobs.rop_slice_bytes - 1))
    throw Error(fmt::format("rop_slice_bytes {} is not a power of two", spec.knobs.rop_slice_bytes));
  if (!spec.wave_path.empty() && spec.fidelity != Fidelity::Rtl)
    throw Error("--wave needs --fidelity rtl (the waveform is the Verilated ARC units')");
  if (spec.threshold > 32)
    throw Error(fmt::format("--threshold {}: a warp has 32 lanes, so no address group reaches it (give 0..32)",
                            spec.threshold));
}

}  // namespace arc::sim
