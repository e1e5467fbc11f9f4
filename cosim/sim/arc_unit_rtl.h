// ArcUnitRtl: the ARC unit at the RTL level: the Verilated rtl/arc_subcore_top (SystemC model
// Vsc_subcore_top, FTZ=1) inside an sc_module, clocked by this module's own gated clock.
// Each cycle in which the unit holds work or an instruction waits for it, the wrapper reads
// the RTL's registered outputs (instr_ready_o, txn_*), completes the handshakes the RTL will
// see at the coming edge, drives the inputs (instruction, mode, threshold, busy, txn_ready)
// and gives one rising edge. When the RTL is idle and nothing waits, the clock stops and the
// thread sleeps on its wake event: an idle unit costs nothing.
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
