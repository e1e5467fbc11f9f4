#include "trace_out.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "error.h"

namespace arc::sw {

arc::trace::Method trace_method(const std::string& m) {
  // The traced floor (issue 17) is Baseline's calls with no atomic issued: timing-only.
  if (m == "baseline" || m == "floor") return arc::trace::Method::Baseline;
  if (m == "sws") return arc::trace::Method::SwS;
  if (m == "swb") return arc::trace::Method::SwB;
  if (m == "cub") return arc::trace::Method::Cub;
  if (m == "adaptive") return arc::trace::Method::Adaptive;
  // Issue 23: the transposed reduce-scatter reduces SW-B's warps into SW-B's sums (the
  // butterfly's pairs) but sends them as one NP-lane instruction: its own method, so the
  // timing model knows. gsplat's cg::reduce is SW-B with X = 1: the trace names SW-B and the
  // header's metadata keeps the arc_bench name (arc_method).
  if (m == "swt") return arc::trace::Method::SwT;
  if (m == "gsplat") return arc::trace::Method::SwB;
  throw arc::Error("trace: unknown method '" + m + "'");
}

std::vector<arc::trace::Instr> to_instrs(const DevCallHead& d, const DevCallValues* values, const std::string& method) {
  if (d.nparams < 1 || d.nparams > static_cast<uint32_t>(kMaxRecParams))
    throw arc::Error("trace: a capture record of " + std::to_string(d.nparams) + " params (1.." +
                     std::to_string(kMaxRecParams) + ")");
  arc::trace::Instr in;
  in.sm = d.sm;
  in.subcore = d.hw_warp % 4;
  in.warp = d.warp;
  in.active_mask = d.active;
  in.flags = (d.flags & 1u) ? arc::trace::kFlagFirstOfWarp : 0u;
  if (d.gap > std::numeric_limits<uint32_t>::max()) {
    in.gap = std::numeric_limits<uint32_t>::max();
    in.flags |= arc::trace::kFlagGapClamped;
  } else {
    in.gap = static_cast<uint32_t>(d.gap);
  }
  if (d.flags & 4u) in.flags |= arc::trace::kFlagVec2;
  if (d.flags & 8u) in.flags |= arc::trace::kFlagVec4;
  if (d.flags & kDevPairCall) in.flags |= arc::trace::kFlagPairCall;
  in.reduced_mask = d.reduced;
  in.nparams = static_cast<uint8_t>(d.nparams);
  bool one_addr = true;
  const uint32_t a0 = d.active ? d.addr[__builtin_ctz(d.active)] : 0;
  for (int l = 0; l < 32; ++l)
    if (((d.active >> l) & 1u) && d.addr[l] != a0) one_addr = false;
  // Adaptive sums a one-address call by the butterfly only when the whole warp called; every
  // other group it reduces (several addresses, or a divergent caller's, bit 1) by the group tree
  // (rule v4; rule v3 summed those serially).
  const bool divergent = (d.flags & 2u) != 0;
  if (d.flags & kDevPairSum)
    in.flags |= arc::trace::kFlagPairSum;  // Adaptive's pair send: adjacent-lane sums (arc/pair_reduce.cuh)
  else if (d.reduced != 0 &&
      (method == "swb" || method == "gsplat" || method == "swt" || (method == "adaptive" && one_addr && !divergent)))
    in.flags |= arc::trace::kFlagTreeSum;
  else if (d.reduced != 0 && method == "adaptive")
    in.flags |= arc::trace::kFlagGroupTreeSum;
  std::vector<arc::trace::Instr> out;
  for (uint32_t p = 0; p < d.nparams; ++p) {
    arc::trace::Instr x = in;
    x.param = static_cast<uint8_t>(p);
    x.seq = d.seq * d.nparams + p;  // instruction numbers: a call of k params is k instructions
    if (p > 0) {
      x.gap = 0;
      x.flags &= ~arc::trace::kFlagFirstOfWarp;  // the clamp flag belongs to the call
    }
    for (int l = 0; l < 32; ++l) {
      if ((d.active >> l) & 1u) {
        x.addr[l] = d.addr[l] + p * d.stride;
        x.value[l] = values ? values->value[p][l] : 0u;
      }
      if ((d.reduced >> l) & 1u) x.partial_sum[l] = values ? values->psum[p][l] : 0u;
    }
    out.push_back(x);
  }
  return out;
}

TraceStats write_capture(const std::string& path, const TraceInfo& info, const CaptureRecords& recs,
                         const std::vector<float>& final_buffer) {
  arc::trace::Header h;
  h.gpu_name = info.gpu_name;
  h.sm_count = info.sm_count;
  h.subcores_per_sm = 4;
  h.kernel_name = info.kernel_name;
  h.method = trace_method(info.method);
  h.balancing_threshold = info.threshold;
  h.scene_generator = info.generator;
  h.scene_seed = info.seed;
  h.buffer_words = final_buffer.size();
  h.reduce_ftz = info.reduce_ftz;
  h.gap_unit = arc::trace::GapUnit::Cycles;
  h.timing_only = info.timing_only;
  h.grid_blocks = info.grid_blocks;
  h.threads_per_block = info.threads_per_block;
  if (!info.timing_only && recs.values.size() != recs.heads.size())
    throw arc::Error("trace: the full form needs every record's values: " + std::to_string(recs.values.size()) +
                     " values for " + std::to_string(recs.heads.size()) + " records (a timing-only recording?)");
  uint32_t slots = 0;
  for (size_t w = 0; w + 1 < recs.first.size() && w < recs.calls.size(); ++w)
    for (uint64_t i = 0; i < recs.calls[w]; ++i) slots = std::max(slots, recs.heads[recs.first[w] + i].hw_warp + 1);
  h.resident_warps_per_sm = slots;
  h.metadata = info.meta;
  h.metadata.emplace_back("arc_method", info.method);
  // The gap runs from the end of the warp's previous reduce call to this call's entry
  // (arc::DevTrace::begin/end): no reduction, atomic issue stall or recorder work in it.
  h.metadata.emplace_back("gap_source", "clock64-between-calls");
  h.metadata.emplace_back("resident_warps_per_sm_source", "largest %warpid seen + 1");
  if (info.method == "swb" || info.method == "gsplat" || info.method == "swt")
    h.metadata.emplace_back("reduce_order", "butterfly: partners 16,8,4,2,1 apart, inactive lanes add +0");
  else if (info.method == "cub")
    h.metadata.emplace_back("reduce_order", "CUB WarpReduce (its own order, not modelled: its sums are not checked)");
  else if (info.method == "adaptive")
    h.metadata.emplace_back("reduce_order",
                            "per call: a whole warp on one address by the butterfly (partners 16,8,4,2,1 apart); "
                            "other reduced groups by the group tree; a pair call's adjacent-lane sums (the "
                            "record's flags name which)");
  else if (info.method == "sws")
    h.metadata.emplace_back("reduce_order", "serial ascending lanes from the leader");
  arc::trace::Writer w(path, h);
  // Record order: roughly the order the GPU issued them, so that the simulator, which streams
  // the file, reads little ahead (cosim/sim/trace_source.h). Warps (block-linear ids) go in
  // waves of what the GPU holds at once (SMs x resident warps per SM); within a wave, call i
  // of every warp before call i + 1 of any.
  const size_t warps = std::min(recs.first.size() ? recs.first.size() - 1 : 0, recs.calls.size());
  const size_t wave = std::max<size_t>(1, static_cast<size_t>(info.sm_count) * std::max<uint32_t>(slots, 1));
  for (size_t w0 = 0; w0 < warps; w0 += wave) {
    const size_t w1 = std::min(warps, w0 + wave);
    uint64_t most = 0;
    for (size_t wp = w0; wp < w1; ++wp) most = std::max(most, recs.calls[wp]);
    for (uint64_t i = 0; i < most; ++i)
      for (size_t wp = w0; wp < w1; ++wp)
        if (i < recs.calls[wp])
          for (const arc::trace::Instr& in :
               to_instrs(recs.heads[recs.first[wp] + i],
                         info.timing_only ? nullptr : &recs.values[recs.first[wp] + i], info.method))
            w.write(in);
  }
  if (info.timing_only) {
    w.finish();
  } else {
    std::vector<uint32_t> words(final_buffer.size());
    if (!words.empty()) std::memcpy(words.data(), final_buffer.data(), 4 * words.size());
    w.finish(words);
  }
  return {w.instructions(), w.lanes(), w.bytes_written()};
}

}  // namespace arc::sw
