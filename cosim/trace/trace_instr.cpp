// The trace's per-instruction vocabulary (trace.h): method names, an instruction's sum order,
// content equality and the one validity check every reader and writer applies.
#include "trace.h"

#include <string>

#include "error.h"
#include "lane_mask.h"
#include "trace_codec.h"

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

std::string check_instr(const Header& h, const Instr& in) {
  if (in.active_mask == 0) return "active mask is 0 (an instruction has at least one active lane)";
  if (in.nparams < 1 || in.nparams > kMaxParams)
    return "a call of " + std::to_string(in.nparams) + " params (1.." + std::to_string(kMaxParams) + ")";
  if (in.param >= in.nparams)
    return "param " + std::to_string(in.param) + " of a " + std::to_string(in.nparams) + "-param call";
  if (in.flags & ~kFlagsDefined) return "undefined flag bits " + detail::hex32(in.flags & ~kFlagsDefined);
  if (__builtin_popcount(in.flags & kFlagsSumOrder) > 1)
    return "flags name more than one sum order (tree, library, group tree, pair)";
  if ((in.flags & kFlagPairCall) && (in.flags & kFlagPairSum))
    return "flags say both a pair call's plain record and a pair instruction";
  if ((in.flags & kFlagVec2) && (in.flags & kFlagVec4)) return "flags say both 2- and 4-wide vector atomics";
  if (h.sm_count && in.sm >= h.sm_count)
    return "SM id " + std::to_string(in.sm) + " >= SM count " + std::to_string(h.sm_count);
  if (h.subcores_per_sm && in.subcore >= h.subcores_per_sm)
    return "sub-core id " + std::to_string(in.subcore) + " >= sub-cores per SM " + std::to_string(h.subcores_per_sm);
  // (A buffer of 2^32 words holds every 32-bit address; the header allows no more.)
  if (const uint32_t bad = h.buffer_words > UINT32_MAX ? 0u : lanes_at_least(in.addr, static_cast<uint32_t>(h.buffer_words)) &
                                                                  in.active_mask) {
    const int l = __builtin_ctz(bad);
    return "lane " + std::to_string(l) + " address " + std::to_string(in.addr[l]) +
           " is outside the gradient buffer (" + std::to_string(h.buffer_words) + " words)";
  }
  if (in.reduced_mask & ~in.active_mask)
    return "lane data inconsistent with the mask: reduced_mask " + detail::hex32(in.reduced_mask) +
           " names lanes outside active mask " + detail::hex32(in.active_mask);
  if (in.flags & kFlagPairCall) {
    if (in.reduced_mask) return "a pair call's plain record names reduced lanes " + detail::hex32(in.reduced_mask);
    return {};
  }
  if (in.flags & kFlagPairSum) {  // reduced lane l took lane l+1's value: same address, l+1 not itself reduced
    if (in.reduced_mask & (in.reduced_mask << 1))
      return "pair sums: reduced_mask " + detail::hex32(in.reduced_mask) + " names two adjacent lanes";
    for (uint32_t r = in.reduced_mask; r; r &= r - 1) {
      const int l = __builtin_ctz(r);
      if (l == 31 || !(in.active_mask >> (l + 1) & 1u) || in.addr[l + 1] != in.addr[l])
        return "pair sums: reduced lane " + std::to_string(l) + " has no active next lane on its address";
    }
    return {};
  }
  for (uint32_t r = in.reduced_mask; r; r &= r - 1) {
    const int l = __builtin_ctz(r);
    for (uint32_t m = in.active_mask & ((1u << l) - 1); m; m &= m - 1) {
      const int k = __builtin_ctz(m);
      if (in.addr[k] == in.addr[l])
        return "reduced_mask bit " + std::to_string(l) + " is not a group leader (lane " + std::to_string(k) +
               " is active with the same address)";
    }
  }
  return {};
}

}  // namespace arc::trace
