// The parameter tables: every GPU key and model knob with its kind, unit, default, range and
// the field it fills (gpu_config.h); the loader (gpu_config.cpp), `arcsim config show` and the
// generated README.md here all read them.
#include <algorithm>

#include "gpu_config.h"

namespace arc::config {

const std::vector<ParamSpec>& gpu_params() {
  using G = GpuConfig;
  static const std::vector<ParamSpec> table = {
      {"name", Kind::String, "-", nullptr, "GPU label printed in reports", 0, 0, {}, &G::name},
      {"sms", Kind::Int, "SMs", nullptr, "streaming multiprocessors on the die", 1, 4096, {}, &G::sms},
      {"subcores_per_sm", Kind::Int, "sub-cores", nullptr,
       "processing blocks (warp scheduler + ARC unit) per SM", 1, 16, {}, &G::subcores_per_sm},
      {"clock_ghz", Kind::Float, "GHz", nullptr, "core clock", 0.01, 10.0, {}, &G::clock_ghz},
      {"warps_per_subcore", Kind::Int, "warps", "12", "resident warps per sub-core (max warps/SM / sub-cores)", 1,
       64, {}, &G::warps_per_subcore},
      {"l2_mb", Kind::Float, "MB", "0", "L2 cache capacity (reported; 0 = not given)", 0, 4096, {}, &G::l2_mb},
      {"die_transistors", Kind::Int, "transistors", nullptr, "transistor count of the whole die", 1e6, 1e13, {},
       &G::die_transistors},
      {"die_transistors_source", Kind::String, "-", "\"unknown\"", "where die_transistors comes from", 0, 0, {},
       &G::die_transistors_source},
      {"lsu_queue_depth", Kind::Int, "requests", "32", "MIO/LSU queue entries per SM", 1, 65536, {},
       &G::lsu_queue_depth},
      {"lsu_issue_per_cycle", Kind::Int, "requests/cycle", "1", "requests the LSU forwards to the crossbar per cycle",
       1, 64, {}, &G::lsu_issue_per_cycle},
      {"coalesce_bytes", Kind::Int, "bytes", "0",
       "granule in which the LSU coalesces a warp's word updates into one request (lanes on one word stay "
       "separate rounds); 0 = one request per lane or reduced sum",
       0, 4096, {}, &G::coalesce_bytes},
      {"flit_bytes", Kind::Int, "bytes", "32",
       "bytes a crossbar flit carries; an SM link, crossbar output or ROP input moves its flits/cycle x this; an "
       "uncoalesced request is one flit",
       4, 4096, {}, &G::flit_bytes},
      {"request_header_bytes", Kind::Int, "bytes", "28",
       "bytes of a coalesced request round besides its words: a round of w words on s 32-byte sectors carrying "
       "l lanes costs header + word x w + sector x s (+ multi_lane if l > 1) bytes",
       0, 4096, {}, &G::request_header_bytes},
      {"request_word_bytes", Kind::Int, "bytes", "4", "bytes per word a coalesced request round updates", 0, 4096,
       {}, &G::request_word_bytes},
      {"request_sector_bytes", Kind::Int, "bytes", "0",
       "bytes per 32-byte sector a coalesced request round touches", 0, 4096, {}, &G::request_sector_bytes},
      {"request_multi_lane_bytes", Kind::Int, "bytes", "0",
       "extra bytes of a coalesced request round that carries more than one lane (a vector lane's words are one lane)",
       0, 4096, {}, &G::request_multi_lane_bytes},
      {"icnt_latency", Kind::Int, "cycles", "20", "SM-to-L2 crossbar latency, one way", 0, 100000, {},
       &G::icnt_latency},
      {"icnt_flits_per_cycle", Kind::Int, "flits/cycle", "1", "crossbar flits accepted per cycle per SM port", 1, 64,
       {}, &G::icnt_flits_per_cycle},
      {"gpc_of_sm", Kind::String, "-", "\"\"",
       "GPC of each SM, one character (0-9, a-z; - for none) per SM in SM-id order; the SMs of a GPC share its link "
       "into the crossbar (icnt_gpc_*). A longer map (a smaller sms set over a GPU's file) gives the first sms SMs; "
       "SMs past a shorter map's end have no GPC link. Empty: no GPC level",
       0, 0, {}, &G::gpc_of_sm},
      {"icnt_gpc_bytes_per_cycle", Kind::String, "bytes/cycle", "\"\"",
       "bytes each GPC's link into the crossbar carries per cycle, one per GPC of gpc_of_sm, separated by spaces or "
       "commas", 0, 0,
       {}, &G::icnt_gpc_bytes_per_cycle},
      {"icnt_gpc_header_bytes", Kind::Int, "bytes", "0",
       "bytes a request takes on its GPC's link per round (its ops on one word go one per round) besides 4 per "
       "value it carries",
       0, 4096, {}, &G::icnt_gpc_header_bytes},
      {"group_of_sm", Kind::String, "-", "\"\"",
       "group of each SM, one character (0-9, a-z; - for none) per SM in SM-id order: SMs (of one GPC) that share a "
       "link of their own on the way to the crossbar (icnt_group_*), besides their GPC's. A longer map gives the "
       "first sms SMs; SMs past a shorter map's end have none. Empty: no group level",
       0, 0, {}, &G::group_of_sm},
      {"icnt_group_bytes_per_cycle", Kind::String, "bytes/cycle", "\"\"",
       "bytes each group's link carries per cycle, one per group of group_of_sm, separated by spaces or commas", 0,
       0, {}, &G::icnt_group_bytes_per_cycle},
      {"icnt_group_header_bytes", Kind::Int, "bytes", "0",
       "bytes a request takes on its group's link per round besides 4 per value it carries", 0, 4096, {},
       &G::icnt_group_header_bytes},
      {"rop_units", Kind::Int, "units", "32", "L2 atomic (ROP) units, address-sliced", 1, 65536, {},
       &G::rop_units},
      {"rop_ops_per_cycle", Kind::Int, "ops/cycle", "1", "atomic operations one ROP unit starts per cycle", 1, 64, {},
       &G::rop_ops_per_cycle},
      {"rop_latency", Kind::Int, "cycles", "160", "cycles from arrival at a ROP unit to the update in memory", 0,
       100000, {}, &G::rop_latency},
      {"addr_hash", Kind::String, "-", "\"ipoly\"", "address-to-ROP-unit slicing", 0, 0,
       {"linear", "xor", "ipoly", "h100"}, &G::addr_hash},
      {"sw_overhead", Kind::Int, "cycles", "0", "issue cycles ARC-SW adds per warp-level atomic (match, shuffles)", 0,
       100000, {}, &G::sw_overhead},
      {"l1_sram_bytes", Kind::Int, "bytes", "0",
       "unified L1 data cache / shared memory SRAM per SM (LAB, LAB-ideal and PHI buffer atomics in it; 0 = not "
       "given)",
       0, 1 << 24, {}, &G::l1_sram_bytes},
  };
  return table;
}

const std::vector<ParamSpec>& model_params() {
  using K = ModelKnobs;
  static const std::vector<ParamSpec> table = {
      {"rop_queue_depth", Kind::Int, "requests", "0",
       "input buffer of each ROP unit (crossbar credits); 0 = auto: max(64, 2 x (icnt_latency + 1) x "
       "icnt_eject_per_cycle), enough credits to cover the crossbar round trip",
       0, 1 << 20, {}, &K::rop_queue_depth},
      {"rop_window", Kind::Int, "requests", "1",
       "how deep into its input queue a ROP unit looks for an op it may start (1 = strictly in order; "
       "an op never passes an older op on its own address)",
       1, 4096, {}, &K::rop_window},
      {"icnt_eject_per_cycle", Kind::Int, "flits/cycle", "1",
       "flits a crossbar output port delivers to its ROP unit per cycle", 1, 64, {}, &K::icnt_eject_per_cycle},
      {"l2_input_bytes_per_cycle", Kind::Int, "bytes/cycle", "0",
       "bytes the crossbar delivers into the L2 side per cycle, all ROP units together, in the order requests "
       "leave their SMs (a request takes its L2-side bytes, as at its output port; 0 = no chip-wide limit: only "
       "the units' own rates)",
       0, 1 << 20, {}, &K::l2_input_bytes_per_cycle},
      {"rop_same_addr_interval", Kind::Float, "cycles", "1.0",
       "mean cycles between two atomics starting on one address (fractions kept to 1/1024 cycle: an op starts at the "
       "first whole cycle at or after its due time)",
       1, 100000, {}, &K::rop_same_addr_interval},
      {"rop_same_line_interval", Kind::Float, "cycles", "0.0",
       "mean cycles between two requests that carry several lanes' words of one line (coalesce_bytes) starting at its "
       "ROP unit, the line's data path (0 = no such limit; a one-word request, or one lane's float2/float4, is bound "
       "by rop_same_addr_interval and rop_line_op_interval)",
       0, 100000, {},
       &K::rop_same_line_interval},
      {"rop_line_op_interval", Kind::Float, "cycles", "0.0",
       "mean cycles of a line's data path that each one-word op (or one lane's float2/float4) takes: the ops on the "
       "words of one line start at most one per this many cycles together, while each word keeps "
       "rop_same_addr_interval (0 = no such limit)",
       0, 100000, {}, &K::rop_line_op_interval},
      {"rop_slices", Kind::Int, "slices", "0",
       "L2 slices behind the ROP units (0 = none): a line's slice is its line number without bits 0 and 2 (lines 128 "
       "and 512 bytes apart share one), modulo this count; see rop_slice_request_interval",
       0, 1 << 16, {}, &K::rop_slices},
      {"rop_slice_request_interval", Kind::Float, "cycles", "0.0",
       "mean cycles between two requests that carry several lanes' words of a line starting on one slice "
       "(rop_slices), whichever of its lines they are on (0 = no such limit)",
       0, 100000, {}, &K::rop_slice_request_interval},
      {"rop_slice_op_interval", Kind::Float, "cycles", "0.0",
       "slot of a slice's in-order queue of one-word ops (rop_slices): an op starts at least this long after the "
       "one before on its slice; a warp's run of ops on one word among other words' runs on its slice takes the "
       "in-order queue's mean gap per op for that many words at random (0 = no such limit)",
       0, 100000, {}, &K::rop_slice_op_interval},
      {"rop_slice_queue_cycles", Kind::Int, "cycles", "0",
       "how long a warp's run of ops on one word counts among its slice's queued words after it starts "
       "(rop_slice_op_interval: the words a run interleaves with are those of the runs started this recently)",
       0, 1 << 20, {}, &K::rop_slice_queue_cycles},
      {"rop_slice_bytes", Kind::Int, "bytes", "32", "address granule the ROP hash slices on (a power of two)", 4,
       1 << 16, {}, &K::rop_slice_bytes},
      {"lsu_busy_slack", Kind::Int, "requests", "32",
       "the LSU raises busy when fewer entries than this are free (<= lsu_queue_depth)", 0, 65536, {},
       &K::lsu_busy_slack},
      {"lsu_cycles_per_instruction", Kind::Int, "cycles", "0",
       "minimum cycles between two warp-level atomics (packets) one SM's LSU admits, whatever their lanes "
       "(0 = no limit beyond one packet per sub-core port per cycle)",
       0, 1024, {}, &K::lsu_cycles_per_instruction},
      {"arc_pass_coalesce", Kind::Int, "switch", "1",
       "ARC-HW: the lanes the scheduler passes through (not reduced) of one instruction leave as one LSU packet "
       "coalesced per granule, as the sub-core's own atomic would (1; the paper's design hands them to the LSU's "
       "coalescer, section 5.3), or each as a one-lane packet in the cycle the RTL emits it (0)",
       0, 1, {}, &K::arc_pass_coalesce},
      {"l2_instruction_bytes", Kind::Int, "bytes", "0",
       "bytes a warp-level atomic (one LSU packet) costs at the crossbar output and the ROP input besides its "
       "requests, charged on its first request (not on the SM's own link)",
       0, 4096, {}, &K::l2_instruction_bytes},
      {"l2_request_header_bytes", Kind::Int, "bytes", "-1",
       "request_header_bytes at the crossbar output and ROP input (-1 = request_header_bytes; the SM's link "
       "always uses the GPU key)",
       -1, 4096, {}, &K::l2_request_header_bytes},
      {"l2_request_sector_bytes", Kind::Int, "bytes", "-1",
       "request_sector_bytes at the crossbar output and ROP input (-1 = request_sector_bytes)", -1, 4096, {},
       &K::l2_request_sector_bytes},
      {"sws_cycles_per_key", Kind::Int, "cycles", "0",
       "SW-S issue cycles per distinct address of a warp atomic (__match_any_sync)", 0, 100000, {},
       &K::sws_cycles_per_key},
      {"sws_cycles_per_lane", Kind::Int, "cycles", "0",
       "SW-S issue cycles per in-core add: per lane of the largest reduced group beyond its first (one shuffle+add step; the groups' loops run side by side)", 0,
       100000, {}, &K::sws_cycles_per_lane},
      {"sws_cycles_per_lane_param", Kind::Int, "cycles", "0",
       "SW-S issue cycles of that step for each further parameter of a call (its NP values move in one loop; "
       "0 = sws_cycles_per_lane)",
       0, 100000, {}, &K::sws_cycles_per_lane_param},
      {"swb_cycles_per_param", Kind::Int, "cycles", "0",
       "SW-B (and Adaptive's butterfly) issue cycles per further reduced parameter of a call (0 = sw_overhead)", 0,
       100000, {}, &K::swb_cycles_per_param},
      {"sw_inst_overhead", Kind::Int, "instructions", "0",
       "warp instructions of a SW call's fixed part (where sw_overhead is charged): dispatch slots, shared with "
       "the workload's compute (sim --gap-issue-rate); the *_cycles knobs are the SW sequence's time on the "
       "shuffle/match (MIO) port",
       0, 100000, {}, &K::sw_inst_overhead},
      {"swb_inst_per_param", Kind::Int, "instructions", "0",
       "butterfly warp instructions per further reduced parameter of a call (SW-B, Adaptive's uniform warps)", 0,
       100000, {}, &K::swb_inst_per_param},
      {"sws_inst_per_lane", Kind::Int, "instructions", "0",
       "SW-S serial-sum warp instructions per step (one per lane of the largest reduced group beyond its first)", 0,
       100000, {}, &K::sws_inst_per_lane},
      {"sws_inst_per_lane_param", Kind::Int, "instructions", "0",
       "SW-S serial-sum warp instructions per step for each further parameter of a call", 0, 100000, {},
       &K::sws_inst_per_lane_param},
      {"tree_inst_per_level", Kind::Int, "instructions", "0",
       "Adaptive group-tree warp instructions per level (ceil(log2(largest group)) levels)", 0, 100000, {},
       &K::tree_inst_per_level},
      {"tree_inst_per_level_param", Kind::Int, "instructions", "0",
       "Adaptive group-tree warp instructions per level for each further parameter of a call", 0, 100000, {},
       &K::tree_inst_per_level_param},
      {"smem_bytes_per_sm", Kind::Int, "bytes", "0",
       "shared memory the workload's resident blocks hold per SM: the part of l1_sram_bytes LAB and PHI cannot use",
       0, 1 << 24, {}, &K::smem_bytes_per_sm},
      {"lab_partition_pct", Kind::Int, "%", "50",
       "LAB: share of the free L1/shared SRAM (l1_sram_bytes - smem_bytes_per_sm) partitioned as atomic buffer; "
       "the rest stays L1 data cache",
       1, 100, {}, &K::lab_partition_pct},
      {"lab_entry_bytes", Kind::Int, "bytes", "8", "LAB: SRAM bytes per buffered word (4 B value + tag)", 4, 64, {},
       &K::lab_entry_bytes},
      {"lab_tag_cycles", Kind::Int, "cycles", "1",
       "LAB / PHI: L1 pipeline cycles of the tag lookup per warp instruction (LAB-ideal: none)", 0, 1024, {},
       &K::lab_tag_cycles},
      {"lab_evict_cycles", Kind::Int, "cycles", "1",
       "LAB / PHI: L1 pipeline cycles an evicted or flushed entry occupies (read out, hand to the LSU); LAB-ideal: "
       "none",
       0, 1024, {}, &K::lab_evict_cycles},
      {"sram_banks", Kind::Int, "banks", "32",
       "LAB / LAB-ideal: banks of the buffer SRAM; a warp instruction takes as many cycles as lane updates fall on "
       "its busiest bank (lanes on one word serialize)",
       1, 1024, {}, &K::sram_banks},
      {"phi_line_bytes", Kind::Int, "bytes", "128", "PHI: L1 line in which updates are buffered and evicted (a power of two)", 4, 128,
       {}, &K::phi_line_bytes},
      {"phi_lookup_cycles", Kind::Int, "cycles", "1",
       "PHI: L1 pipeline cycles per lane update (each lane is its own L1 lookup and read-modify-write)", 1, 1024, {},
       &K::phi_lookup_cycles},
  };
  return table;
}

const ParamSpec* find_param(std::string_view key) {
  for (const auto* t : {&gpu_params(), &model_params()})
    for (const auto& p : *t)
      if (key == p.key) return &p;
  return nullptr;
}

std::int64_t resolved_rop_queue_depth(const GpuConfig& gpu, const ModelKnobs& knobs) {
  if (knobs.rop_queue_depth > 0) return knobs.rop_queue_depth;
  return std::max<std::int64_t>(64, 2 * (gpu.icnt_latency + 1) * knobs.icnt_eject_per_cycle);
}

}  // namespace arc::config
