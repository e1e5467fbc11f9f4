#include "trace_out.h"

#include <cstring>
#include <limits>

#include "error.h"

namespace arc::sw {

arc::trace::Method trace_method(const std::string& m) {
  if (m == "baseline") return arc::trace::Method::Baseline;
  if (m == "sws") return arc::trace::Method::SwS;
  if (m == "swb") return arc::trace::Method::SwB;
  if (m == "cub") return arc::trace::Method::Cub;
  if (m == "adaptive") return arc::trace::Method::Adaptive;
  throw arc::Error("trace: unknown method '" + m + "'");
}

arc::trace::Instr to_instr(const DevInstr& d, const std::string& method) {
  arc::trace::Instr in;
  in.sm = d.sm;
  in.subcore = d.subcore;
  in.warp = d.warp;
  in.seq = d.seq;
  in.active_mask = d.active;
  in.flags = (d.flags & 1u) ? arc::trace::kFlagFirstOfWarp : 0u;
  if (d.gap > std::numeric_limits<uint32_t>::max()) {
    in.gap = std::numeric_limits<uint32_t>::max();
    in.flags |= arc::trace::kFlagGapClamped;
  } else {
    in.gap = static_cast<uint32_t>(d.gap);
  }
  in.reduced_mask = d.reduced;
  for (int l = 0; l < 32; ++l) {
    if ((d.active >> l) & 1u) {
      in.addr[l] = d.addr[l];
      in.value[l] = d.value[l];
    }
    if ((d.reduced >> l) & 1u) in.partial_sum[l] = d.psum[l];
  }
  if (d.reduced != 0 && method == "swb") in.flags |= arc::trace::kFlagTreeSum;
  if (d.reduced != 0 && method == "adaptive") {
    bool one_addr = true;
    const uint32_t a0 = d.addr[__builtin_ctz(d.active)];
    for (int l = 0; l < 32; ++l)
      if (((d.active >> l) & 1u) && d.addr[l] != a0) one_addr = false;
    if (one_addr) in.flags |= arc::trace::kFlagTreeSum;
  }
  return in;
}

TraceStats write_capture(const std::string& path, const TraceInfo& info,
                         const std::vector<DevInstr>& recs, const std::vector<float>& final_buffer) {
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
  h.metadata = info.meta;
  h.metadata.emplace_back("arc_method", info.method);
  h.metadata.emplace_back("gap_source", "clock64");
  if (info.method == "swb" || info.method == "cub")
    h.metadata.emplace_back("reduce_order", "butterfly shfl_down 16,8,4,2,1, inactive lanes add +0");
  else if (info.method == "adaptive")
    h.metadata.emplace_back("reduce_order",
                            "per instruction: serial ascending lanes, except uniform full warps reduced by "
                            "butterfly shfl_down 16,8,4,2,1 (inactive lanes add +0)");
  else if (info.method == "sws")
    h.metadata.emplace_back("reduce_order", "serial ascending lanes from the leader");
  arc::trace::Writer w(path, h);
  for (const DevInstr& d : recs) w.write(to_instr(d, info.method));
  std::vector<uint32_t> words(final_buffer.size());
  if (!words.empty()) std::memcpy(words.data(), final_buffer.data(), 4 * words.size());
  w.finish(words);
  return {w.instructions(), w.lanes(), w.bytes_written()};
}

}  // namespace arc::sw
