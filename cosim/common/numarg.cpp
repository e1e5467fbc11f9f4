#include "numarg.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "error.h"

namespace arc {

namespace {

[[noreturn]] void bad(const std::string& what, std::string_view text, const std::string& why) {
  throw Error(what + ": '" + std::string(text) + "' " + why);
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// Digits -> value; false on overflow past UINT64_MAX.
bool to_u64(std::string_view digits, std::uint64_t& out) {
  std::uint64_t v = 0;
  for (char c : digits) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

}  // namespace

std::string range_text(std::uint64_t min, std::uint64_t max) {
  return "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
}
std::string range_text(std::int64_t min, std::int64_t max) {
  return "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
}
std::string range_text(double min, double max) {
  std::ostringstream s;
  s.precision(12);
  s << "[" << min << ", " << max << "]";
  return s.str();
}

std::uint64_t parse_count(std::string_view text, const std::string& what, std::uint64_t min, std::uint64_t max) {
  const std::string range = range_text(min, max);
  if (!text.empty() && text[0] == '-' && all_digits(text.substr(1)))
    bad(what, text, "is negative (give a whole number in " + range + ")");
  if (!all_digits(text)) bad(what, text, "is not a decimal whole number (give one in " + range + ")");
  std::uint64_t v = 0;
  if (!to_u64(text, v) || v < min || v > max) bad(what, text, "is out of range " + range);
  return v;
}

std::int64_t parse_int(std::string_view text, const std::string& what, std::int64_t min, std::int64_t max) {
  const std::string range = range_text(min, max);
  const bool neg = !text.empty() && text[0] == '-';
  const std::string_view digits = neg ? text.substr(1) : text;
  if (!all_digits(digits)) bad(what, text, "is not a decimal integer (give one in " + range + ")");
  std::uint64_t mag = 0;
  const std::uint64_t limit = neg ? std::uint64_t(INT64_MAX) + 1 : std::uint64_t(INT64_MAX);
  if (!to_u64(digits, mag) || mag > limit) bad(what, text, "is out of range " + range);
  const std::int64_t v = neg ? static_cast<std::int64_t>(0 - mag) : static_cast<std::int64_t>(mag);
  if (v < min || v > max) bad(what, text, "is out of range " + range);
  return v;
}

double parse_real(std::string_view text, const std::string& what, double min, double max) {
  const std::string range = range_text(min, max);
  // Decimal only: sign, digits, one '.', an exponent. No hex floats, nan, inf, spaces.
  bool ok = !text.empty(), digit = false;
  for (size_t i = 0; ok && i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') digit = true;
    else if (c == '.' || c == 'e' || c == 'E') continue;
    else if ((c == '-' || c == '+') && (i == 0 || text[i - 1] == 'e' || text[i - 1] == 'E')) continue;
    else ok = false;
  }
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const double v = ok && digit ? std::strtod(s.c_str(), &end) : 0.0;
  if (!ok || !digit || end != s.c_str() + s.size())
    bad(what, text, "is not a decimal number (give a finite one in " + range + ")");
  if (errno == ERANGE || !std::isfinite(v) || v < min || v > max) bad(what, text, "is out of range " + range);
  return v;
}

}  // namespace arc
