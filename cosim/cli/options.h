// CLI11 checks built on arc's one number parser (cosim/common/numarg.h): every count, size
// and rate flag of arcsim goes through them, so each is decimal, finite and inside its range,
// and a bad value is one line naming the flag. An accepted integer is rewritten to its plain
// decimal form before CLI11 converts it (CLI11 alone would read "010" as octal 8).
#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "error.h"
#include "numarg.h"

namespace arc::cli {

// A value that names something (a file, a GPU, an id) may not be empty: `--fst ""` would
// otherwise pass as "not given" and quietly do nothing.
inline CLI::Validator nonempty() {
  return CLI::Validator([](std::string& s) -> std::string { return s.empty() ? "an empty value names nothing" : ""; },
                        "");
}

inline CLI::Validator count_in(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& s) -> std::string {
        try {
          s = std::to_string(arc::parse_count(s, "value", min, max));
          return {};
        } catch (const arc::Error& e) {
          return std::string(e.what()).substr(7);  // without "value: "
        }
      },
      "INT in " + arc::range_text(min, max));
}

inline CLI::Validator int_in(std::int64_t min, std::int64_t max) {
  return CLI::Validator(
      [min, max](std::string& s) -> std::string {
        try {
          s = std::to_string(arc::parse_int(s, "value", min, max));
          return {};
        } catch (const arc::Error& e) {
          return std::string(e.what()).substr(7);
        }
      },
      "INT in " + arc::range_text(min, max));
}

inline CLI::Validator real_in(double min, double max) {
  return CLI::Validator(
      [min, max](std::string& s) -> std::string {
        try {
          (void)arc::parse_real(s, "value", min, max);
          return {};
        } catch (const arc::Error& e) {
          return std::string(e.what()).substr(7);
        }
      },
      "NUMBER in " + arc::range_text(min, max));
}

}  // namespace arc::cli
