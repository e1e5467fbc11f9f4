#include "params.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "error.h"
#include "l1_atomic_buffer.h"

namespace arc::sim {

const char* mode_name(Mode m) {
  switch (m) {
    case Mode::Baseline: return "baseline";
    case Mode::SwS: return "sw-s";
    case Mode::SwB: return "sw-b";
    case Mode::ArcHw: return "arc-hw";
    case Mode::SwT: return "sw-t";
    case Mode::Adaptive: return "adaptive";
    case Mode::Lab: return "lab";
    case Mode::LabIdeal: return "lab-ideal";
    case Mode::Phi: return "phi";
  }
  return "?";
}

Mode mode_from_name(const std::string& s) {
  for (Mode m : {Mode::Baseline, Mode::SwS, Mode::SwB, Mode::SwT, Mode::ArcHw, Mode::Adaptive, Mode::Lab,
                 Mode::LabIdeal, Mode::Phi})
    if (s == mode_name(m)) return m;
  throw Error(fmt::format("--mode: unknown mode '{}' (baseline, sw-s, sw-b, sw-t, adaptive, arc-hw, lab, lab-ideal, phi)", s));
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

std::string RunSpec::label() const {
  if (mode != Mode::ArcHw) return vector > 1 ? fmt::format("{}-v{}", mode_name(mode), vector) : mode_name(mode);
  if (sched == golden::SchedMode::Threshold) return fmt::format("arc-hw/threshold-{}", threshold);
  return fmt::format("arc-hw/{}", golden::to_string(sched));
}

int64_t rop_queue_depth(const RunSpec& spec) {
  return config::resolved_rop_queue_depth(spec.gpu, spec.knobs);
}

void apply_set(RunSpec& spec, const std::string& kv) {
  config::apply_override(spec.gpu, spec.knobs, kv);
}

void validate(const RunSpec& spec) {
  config::validate(spec.gpu, spec.gpu.source_file.empty() ? "config" : spec.gpu.source_file);
  config::validate(spec.knobs, spec.gpu);
  if (!spec.wave_path.empty() && spec.fidelity != Fidelity::Rtl)
    throw Error("--wave needs --fidelity rtl (the waveform is the Verilated ARC units')");
  if (spec.threshold > 32)
    throw Error(fmt::format("--threshold {}: a warp has 32 lanes, so no address group reaches it (give 0..32)",
                            spec.threshold));
  if (spec.vector != 0 && spec.vector != 1 && spec.vector != 2 && spec.vector != 4)
    throw Error(fmt::format("--vector {}: a lane update is 1, 2 or 4 floats (0 = as the trace says)", spec.vector));
  if (spec.vector > 1 && (spec.mode == Mode::ArcHw || spec.mode == Mode::SwT))
    throw Error(fmt::format("--vector {} applies to baseline, sw-s, sw-b and adaptive, not {}", spec.vector, mode_name(spec.mode)));
  if (!(spec.gap_issue_rate >= 0.0 && spec.gap_issue_rate <= 1.0))
    throw Error(fmt::format("--gap-issue-rate {}: a warp's compute issues at most one instruction per cycle (give 0..1)",
                            spec.gap_issue_rate));
  if (sm_buffered(spec.mode)) validate_buffer(spec);
}

}  // namespace arc::sim
