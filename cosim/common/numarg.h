// Numbers a user types (command-line counts, sizes, rates; sweep-spec values): one parser and
// range check for every tool, so `-n -5`, `--gap-mean -1`, `--sigma nan` or a 20-digit count
// are one arc::Error line instead of a wrapped 2^64 - 5 or a NaN deep inside a run.
//
// Integers are decimal only: an optional '-' (signed kinds only) and digits. Leading zeros are
// read as decimal ("010" is 10, never octal 8); '+', hex ("0x10"), exponents ("1e6"), digit
// separators ("1_000") and spaces are refused. Reals are decimal too ("1.5", "2e-3"): hex
// floats, "nan" and "inf" are refused. Every value must lie in [min, max].
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace arc {

// `what` names the value in the message, e.g. "--instructions" or "trace.gen.a.instructions".
std::uint64_t parse_count(std::string_view text, const std::string& what, std::uint64_t min, std::uint64_t max);
std::int64_t parse_int(std::string_view text, const std::string& what, std::int64_t min, std::int64_t max);
double parse_real(std::string_view text, const std::string& what, double min, double max);

// "[1, 1000000000]" as printed in messages and --help.
std::string range_text(std::uint64_t min, std::uint64_t max);
std::string range_text(std::int64_t min, std::int64_t max);
std::string range_text(double min, double max);

}  // namespace arc
