// ArcUnitRtl: the ARC unit at the RTL level: the Verilated rtl/arc_subcore_top (C++ model
// Varc_subcore_top_ftz1, FTZ=1) inside an sc_module, clocked by this module's own gated clock.
// Each cycle in which the unit holds work or an instruction waits for it, the wrapper's step()
// (run by the model's Calendar) reads the RTL's registered outputs (instr_ready_o, txn_*), completes the
// handshakes the RTL will see at the coming edge, drives the inputs (instruction, mode,
// threshold, busy, txn_ready) and gives one clock edge (eval). When the RTL is idle and
// nothing waits, the clock stops and step() is not run again until the sub-core's push
// wakes it: an idle unit costs nothing. The model's ports are plain C++ fields, not SystemC
// signals: no delta cycles per edge (issue 16: the RTL level's speed). The FST waveform
// (--wave) gets a dump after every edge any unit gives (time in ps: cycle x 1000 + 500).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "arc_unit.h"

namespace arc::sim {

std::unique_ptr<ArcUnit> make_arc_unit_rtl(const char* name, const ArcUnitSetup& setup, Stats& stats);

// One FST waveform of every RTL ARC unit of the model (call after elaboration).
class RtlWave {
 public:
  RtlWave(const std::string& path, const std::vector<std::unique_ptr<ArcUnit>>& units);
  ~RtlWave();
  RtlWave(const RtlWave&) = delete;
  RtlWave& operator=(const RtlWave&) = delete;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

void enable_rtl_tracing();  // before any RTL unit is built, when a wave is wanted

}  // namespace arc::sim
