// The trace's per-instruction vocabulary (trace.h): method names, an instruction's sum order,
// content equality. (check_instr stays in trace.cpp, where the reader's record loop inlines it.)
#include "trace.h"

#include <string>

#include "error.h"

namespace arc::trace {

const char* method_name(Method m) {
  switch (m) {
    case Method::Baseline: return "baseline";
    case Method::SwS: return "sw-s";
    case Method::SwB: return "sw-b";
    case Method::Hw: return "hw";
    case Method::Cub: return "cub";
    case Method::Adaptive: return "adaptive";
    case Method::SwT: return "sw-t";
  }
  return "unknown";
}

SumOrder sum_order(Method m, const Instr& in) {
  if (in.flags & kFlagOpaqueSum) return SumOrder::Opaque;
  if (in.flags & kFlagTreeSum) return SumOrder::Tree;
  if (in.flags & kFlagGroupTreeSum) return SumOrder::GroupTree;
  if (in.flags & kFlagPairSum) return SumOrder::Pair;
  if (m == Method::SwB || m == Method::SwT) return SumOrder::Tree;
  if (m == Method::Cub) return SumOrder::Opaque;
  return SumOrder::Serial;
}

Method method_from_name(const std::string& s) {
  for (Method m : {Method::Baseline, Method::SwS, Method::SwB, Method::Hw, Method::Cub, Method::Adaptive, Method::SwT})
    if (s == method_name(m)) return m;
  throw Error("unknown method '" + s + "' (expected baseline, sw-s, sw-b, hw, cub, adaptive or sw-t)");
}

bool same_content(const Instr& a, const Instr& b) {
  if (a.sm != b.sm || a.subcore != b.subcore || a.warp != b.warp || a.seq != b.seq ||
      a.active_mask != b.active_mask || a.gap != b.gap || a.flags != b.flags || a.reduced_mask != b.reduced_mask ||
      a.param != b.param || a.nparams != b.nparams)
    return false;
  for (int l = 0; l < kLanes; ++l) {
    if ((a.active_mask >> l & 1) && (a.addr[l] != b.addr[l] || a.value[l] != b.value[l])) return false;
    if ((a.reduced_mask >> l & 1) && a.partial_sum[l] != b.partial_sum[l]) return false;
  }
  return true;
}

}  // namespace arc::trace
