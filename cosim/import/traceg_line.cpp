#include "traceg_line.h"

#include <fmt/format.h>

#include <charconv>
#include <limits>
#include <vector>

namespace arc::import {

std::optional<uint64_t> parse_unsigned(std::string_view s, int base) {
  if (base == 16 && s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

namespace {

std::optional<int64_t> parse_signed(std::string_view s) {
  if (s.empty()) return std::nullopt;
  int64_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 10);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

bool upper_or_digit(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
bool word_char(char c) { return upper_or_digit(c) || (c >= 'a' && c <= 'z'); }

std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

// Thrown inside parse_instr_line only, turned into its return value.
struct LineError {
  std::string what;
};

class Fields {
 public:
  explicit Fields(std::vector<std::string_view> t) : t_(std::move(t)) {}
  std::string_view next(const char* what) {
    if (i_ >= t_.size()) throw LineError{fmt::format("line ends before the {}", what)};
    return t_[i_++];
  }
  uint64_t dec(const char* what) {
    const auto s = next(what);
    const auto v = parse_unsigned(s, 10);
    if (!v) throw LineError{fmt::format("'{}' is not a decimal {}", s, what)};
    return *v;
  }
  uint64_t hex(const char* what) {
    const auto s = next(what);
    const auto v = parse_unsigned(s, 16);
    if (!v) throw LineError{fmt::format("'{}' is not a hexadecimal {}", s, what)};
    return *v;
  }
  int64_t sdec(const char* what) {
    const auto s = next(what);
    const auto v = parse_signed(s);
    if (!v) throw LineError{fmt::format("'{}' is not a signed decimal {}", s, what)};
    return *v;
  }
  void reg(const char* what) {
    const auto s = next(what);
    bool ok = s.size() >= 2 && s[0] == 'R';
    for (size_t k = 1; ok && k < s.size(); ++k) ok = s[k] >= '0' && s[k] <= '9';
    if (!ok) throw LineError{fmt::format("'{}' is not a register (R<n>) for the {}", s, what)};
  }
  size_t left() const { return t_.size() - i_; }

 private:
  std::vector<std::string_view> t_;
  size_t i_ = 0;
};

uint64_t offset_addr(uint64_t base, __int128 off) {
  const __int128 a = static_cast<__int128>(base) + off;
  if (a < 0 || a > static_cast<__int128>(std::numeric_limits<uint64_t>::max()))
    throw LineError{fmt::format("address 0x{:x} {:+} leaves the 64-bit address space", base, static_cast<int64_t>(off))};
  return static_cast<uint64_t>(a);
}

void parse_addresses(Fields& f, SassInstr& in) {
  const int lanes = __builtin_popcount(in.mask);
  const auto form = f.dec("address format");
  if (form > 2)
    throw LineError{fmt::format("unknown address format {} (0 list, 1 base+stride, 2 base+delta)", form)};
  in.form = static_cast<AddrForm>(form);
  const size_t want = form == 0 ? static_cast<size_t>(lanes) : form == 1 ? 2 : 1 + static_cast<size_t>(lanes ? lanes - 1 : 0);
  if (f.left() != want) {
    const char* name = form == 0 ? "addresses" : form == 1 ? "fields (base, stride)" : "fields (base, deltas)";
    throw LineError{fmt::format("mask {:08x} has {} active lanes but {} {} follow (expected {})", in.mask, lanes,
                                f.left(), name, want)};
  }
  if (in.form == AddrForm::List) {
    for (int l = 0; l < kWarpSize; ++l)
      if (in.mask >> l & 1) in.addr[l] = f.hex("address");
    return;
  }
  const uint64_t base = f.hex("base address");
  if (in.form == AddrForm::BaseStride) {
    const int64_t stride = f.sdec("stride");
    // The tracer writes base+stride only for one contiguous run of active lanes.
    const uint32_t run = in.mask ? in.mask >> __builtin_ctz(in.mask) : 0;
    if (run & (run + 1))
      throw LineError{fmt::format("base+stride address form with mask {:08x}, whose active lanes are not contiguous",
                                  in.mask)};
    int k = 0;
    for (int l = 0; l < kWarpSize; ++l)
      if (in.mask >> l & 1) in.addr[l] = offset_addr(base, static_cast<__int128>(stride) * k++);
    return;
  }
  uint64_t prev = base;
  bool first = true;
  for (int l = 0; l < kWarpSize; ++l) {
    if (!(in.mask >> l & 1)) continue;
    in.addr[l] = first ? base : offset_addr(prev, f.sdec("address delta"));
    prev = in.addr[l];
    first = false;
  }
}

}  // namespace

bool is_sass_opcode(std::string_view op) {
  if (op.empty() || op[0] < 'A' || op[0] > 'Z') return false;
  size_t i = 0;
  while (i < op.size() && upper_or_digit(op[i])) ++i;
  while (i < op.size()) {
    if (op[i] != '.' || i + 1 == op.size()) return false;
    ++i;
    const size_t b = i;
    while (i < op.size() && word_char(op[i])) ++i;
    if (i == b) return false;
  }
  return true;
}

std::string parse_instr_line(const std::string& line, int tracer_version, SassInstr& in) {
  try {
    Fields f(split_ws(line));
    if (tracer_version < 3)  // older traces repeat the block and warp ids on every line
      for (const char* what : {"thread block x", "thread block y", "thread block z", "warp id"}) f.dec(what);
    const uint64_t pc = f.hex("PC");
    const uint64_t mask = f.hex("active mask");
    if (mask > 0xffffffffu) throw LineError{fmt::format("active mask {:x} is wider than 32 lanes", mask)};
    in.pc = static_cast<uint32_t>(pc);
    in.mask = static_cast<uint32_t>(mask);
    const uint64_t dsts = f.dec("destination register count");
    if (dsts > 8) throw LineError{fmt::format("{} destination registers (at most 8)", dsts)};
    for (uint64_t k = 0; k < dsts; ++k) f.reg("destination register");
    const auto op = f.next("opcode");
    if (!is_sass_opcode(op))
      throw LineError{fmt::format("unknown opcode syntax '{}' (expected SASS such as RED.E.ADD.F32.FTZ.RN.STRONG.GPU)", op)};
    in.opcode = std::string(op);
    const uint64_t srcs = f.dec("source register count");
    if (srcs > 8) throw LineError{fmt::format("{} source registers (at most 8)", srcs)};
    for (uint64_t k = 0; k < srcs; ++k) f.reg("source register");
    const uint64_t width = f.dec("memory width");
    if (width > 1024) throw LineError{fmt::format("memory width {} bytes", width)};
    in.mem_width = static_cast<uint32_t>(width);
    if (width == 0) {
      if (f.left()) throw LineError{fmt::format("{} fields after the memory width 0 of a non-memory instruction", f.left())};
      return "";
    }
    parse_addresses(f, in);
    return "";
  } catch (const LineError& e) {
    return e.what;
  }
}

}  // namespace arc::import
