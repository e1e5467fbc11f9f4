#include "atomic_op.h"

#include <array>
#include <vector>

namespace arc::import {

namespace {

std::vector<std::string_view> split_dots(std::string_view s) {
  std::vector<std::string_view> out;
  size_t b = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == '.') {
      if (i > b) out.push_back(s.substr(b, i - b));
      b = i + 1;
    }
  return out;
}

template <size_t N>
bool one_of(std::string_view t, const std::array<std::string_view, N>& set) {
  for (auto s : set)
    if (s == t) return true;
  return false;
}

constexpr std::array<std::string_view, 8> kAtomicNames{"RED", "REDG", "ATOM", "ATOMG", "ATOMS", "REDAS", "UBLKRED", "UTMAREDG"};
constexpr std::array<std::string_view, 4> kGlobalNames{"RED", "REDG", "ATOM", "ATOMG"};
constexpr std::array<std::string_view, 13> kOps{"ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR",
                                                "EXCH", "CAS", "CAST", "SAFEADD", "POPC"};
constexpr std::array<std::string_view, 15> kTypes{"F32", "F32x2", "F32x4", "F64", "F16x2", "BF16x2", "F16", "BF16",
                                                  "S32", "U32", "S64", "U64", "64", "128", "F16x8"};

}  // namespace

AtomicOp classify_atomic(std::string_view opcode) {
  AtomicOp a;
  const auto t = split_dots(opcode);
  if (t.empty() || !one_of(t[0], kAtomicNames)) return a;
  a.atomic = true;
  std::string_view op = "?", type = "U32";
  bool have_op = false, have_type = false;
  for (size_t i = 1; i < t.size(); ++i) {
    if (!have_op && one_of(t[i], kOps)) op = t[i], have_op = true;
    else if (!have_type && one_of(t[i], kTypes)) type = t[i], have_type = true;
  }
  a.key = std::string(t[0]) + "." + std::string(op) + "." + std::string(type);
  a.generic = t[0] == "ATOM";
  a.keep = one_of(t[0], kGlobalNames) && op == "ADD" && (type == "F32" || type == "F32x2" || type == "F32x4");
  a.vector = type == "F32x2" ? 2 : type == "F32x4" ? 4 : 1;
  return a;
}

}  // namespace arc::import
