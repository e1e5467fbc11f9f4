// AtomicBuffer: the SM-side atomic buffering the ARC paper compares ARC-HW with (section 7.1):
// LAB (Dalmia et al., HPCA'22, the paper's ref [32]), LAB-ideal (the paper's idealization of it)
// and PHI (Mukkara et al., MICRO'19, ref [78]). One per SM, between the sub-cores and the LSU:
//
//   SubCore (baseline per-lane packets) -> AtomicBuffer (per SM) -> Lsu port 0 -> crossbar -> ROP
//
//  - Storage: `lines` lines of `line_words` consecutive words, fully associative, LRU. LAB and
//    LAB-ideal buffer single words (line_words = 1); PHI buffers updates in L1 lines.
//  - A lane update to a buffered word (LAB) or line (PHI) is absorbed: added into the partial
//    sum (ROP semantics, FTZ). A miss allocates; with the buffer full the least recently used
//    line is evicted: its partial sums leave as one packet to the LSU (a PHI line's dirty words
//    coalesce as any packet does).
//  - After the last packet of the SM (every sub-core drained, ports empty) every line is
//    flushed to L2 the same way; the run ends when the last flushed update is performed.
//  - Throughput: one warp instruction (packet) at a time, for the whole SM (not per sub-core):
//      lab:       lab_tag_cycles + the lane updates on its busiest SRAM bank (word % sram_banks;
//                 lanes on one word serialize) + lab_evict_cycles per eviction
//      lab-ideal: the busiest bank only (separate SRAM: no tag, no contention with the LSU)
//      phi:       lab_tag_cycles + phi_lookup_cycles per lane update (a lookup each) +
//                 lab_evict_cycles per evicted line
//    A sub-core whose packet waits in its port stalls (the atomic stall). Evictions wait for the
//    LSU's port; while two are waiting the buffer takes no new packet.
#pragma once
#include <systemc>

#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <unordered_map>
#include <vector>

#include "coalesce.h"
#include "link.h"
#include "params.h"
#include "request.h"
#include "stats.h"

namespace arc::sim {

class SubCore;

struct BufferGeometry {
  uint64_t lines = 0;
  uint32_t line_words = 1;
};
// Capacity of a mode's buffer per SM (sm_buffered modes):
//  lab:       (l1_sram_bytes - smem_bytes_per_sm) x lab_partition_pct / 100 / lab_entry_bytes words
//  lab-ideal: l1_sram_bytes / 4 words (a separate SRAM as large as the L1/shared SRAM, no tags)
//  phi:       (l1_sram_bytes - smem_bytes_per_sm) / phi_line_bytes lines of phi_line_bytes / 4 words
BufferGeometry buffer_geometry(Mode mode, const config::GpuConfig& gpu, const config::ModelKnobs& knobs);
// One-line arc::Error for a spec a buffered mode cannot run (no RTL level, no L1 size, no room).
void validate_buffer(const RunSpec& spec);

struct BufferSetup {
  Mode mode = Mode::Lab;
  uint32_t sm = 0;
  uint32_t ports = 4;
  BufferGeometry geo;
  uint32_t banks = 32;
  uint32_t tag_cycles = 1;
  uint32_t evict_cycles = 1;
  uint32_t lookup_cycles = 1;  // phi
  bool values = true;          // false for a timing-only trace (no adds)
  CoalesceSetup coalesce;      // how an evicted line's words become requests
};

// The setup of spec's mode (sm = 0): geometry, costs from the knobs; `coalesce` is the sub-cores'
// (PHI's evicted lines coalesce per line: one request per line of dirty words).
BufferSetup buffer_setup(const RunSpec& spec, const CoalesceSetup& coalesce, bool values);

class AtomicBuffer : public sc_core::sc_module {
 public:
  AtomicBuffer(sc_core::sc_module_name name, const BufferSetup& setup, Stats& stats);

  std::vector<std::unique_ptr<Link<Packet>>> ports;  // one per sub-core
  Link<Packet>* out = nullptr;                       // the LSU's port
  std::vector<const SubCore*> cores;                 // this SM's sub-cores (flush once all drained)
  Wake wake;

  bool drained() const;  // ports empty, nothing buffered, nothing waiting for the LSU
  uint64_t buffered_lanes() const;  // lane updates held in the buffer (0 after the flush)

 private:
  struct Entry {
    std::list<uint32_t>::iterator lru;
    uint32_t slot;
  };
  void step();
  Cycle process(const Packet& p);  // absorbs its ops; returns the pipeline cycles it takes
  void evict_lru();                // the oldest line into pending_
  bool cores_done() const;

  BufferSetup setup_;
  Stats& stats_;
  std::list<uint32_t> lru_;  // line tags, most recent first
  std::unordered_map<uint32_t, Entry> map_;
  std::vector<uint32_t> value_, lanes_;  // per slot word: partial sum (binary32) and lane updates
  std::vector<uint32_t> dirty_;          // per slot: mask of words holding updates
  std::vector<uint32_t> free_slots_;
  std::vector<uint32_t> bank_load_;
  std::deque<Packet> pending_;  // evicted lines waiting for the LSU port
  std::vector<LaneOp> scratch_;
  Cycle busy_until_ = 0;
  uint32_t rr_ = 0;
  bool flushing_ = false;
};

}  // namespace arc::sim
