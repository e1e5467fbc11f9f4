// GpuModel: the whole timing model for one run, elaborated once per process:
//   SubCore (sms x subcores_per_sm) -> [ArcUnit, arc-hw only] -> Lsu (per SM)
//     -> Icnt (one crossbar) -> RopUnit (rop_units, address-sliced) -> MemoryImage.
// Back-pressure runs the other way: a ROP that cannot keep up stops taking crossbar flits,
// the crossbar stops taking an SM's requests, that SM's LSU queue fills, its busy register
// rises (the ARC scheduler's busy input) and its sub-cores stall on their atomics.
#pragma once
#include <systemc>

#include <memory>
#include <vector>

#include "arc_unit.h"
#include "icnt.h"
#include "l1_atomic_buffer.h"
#include "lsu.h"
#include "params.h"
#include "rop.h"
#include "rop_hash.h"
#include "stats.h"
#include "subcore.h"
#include "workload.h"

namespace arc::sim {

class GpuModel : public sc_core::sc_module {
 public:
  GpuModel(sc_core::sc_module_name name, const RunSpec& spec, const TraceSummary& trace, const Workload& work,
           InstrSource& source);

  // Called after sc_start() returns: closes the integrals and fills total_cycles.
  void finish();
  // The end-of-run invariants, checked after finish() in every run: every warp instruction
  // issued, lane updates conserved (trace = ROP-side + in-core adds, per run and per word),
  // requests sent = requests performed, every queue drained, and (when the trace has values)
  // each word of the image within the summation-order bound of the trace's exact sum. Throws
  // arc::Error with one line naming the first broken invariant.
  void check_end(const Workload& work, const TraceSummary& trace) const;
  const Stats& stats() const { return stats_; }
  const golden::MemoryImage& image() const { return image_; }
  ZeroTable<uint32_t> take_image() { return image_.take_words(); }  // after the run: the image is empty then
  const CommitLog& commits() const { return log_; }
  uint64_t rop_units() const { return static_cast<uint64_t>(rops_.size()); }
  const std::vector<std::unique_ptr<ArcUnit>>& arc_units() const { return arcs_; }
  const Lsu& lsu(uint32_t sm) const { return *lsus_[sm]; }

 private:
  RunSpec spec_;
  Calendar calendar_{"calendar"};  // first: every module's wake-ups go through it
  Stats stats_;
  golden::MemoryImage image_;
  CommitLog log_;
  ZeroTable<WordState> words_;  // per word: ROP serialization and lane updates committed
  std::vector<Registered<uint64_t>> lines_;   // per line: the next request's due time (rop_same_line_interval, rop_line_op_interval)
  std::vector<Registered<SliceState>> slices_;  // per L2 slice (rop_slices): its next request's and op's due times, its runs
  RopHash hash_;
  std::vector<std::unique_ptr<SubCore>> subcores_;
  std::vector<std::unique_ptr<ArcUnit>> arcs_;
  std::vector<std::unique_ptr<Lsu>> lsus_;
  std::vector<std::unique_ptr<AtomicBuffer>> buffers_;  // lab, lab-ideal, phi: one per SM
  std::unique_ptr<Icnt> icnt_;
  std::vector<std::unique_ptr<RopUnit>> rops_;
};

}  // namespace arc::sim
