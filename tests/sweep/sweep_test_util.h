// Helpers for the arcsim sweep tests: a scratch folder per test, the built arcsim run as a
// child with both streams captured, spec files written from text, and the closing count.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace sweeptest {

namespace fs = std::filesystem;

struct CmdResult {
  int code;
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline void write_text(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// A fresh folder for the running test: $TMPDIR/arcsim-sweep-tests/<pid>/<Suite.Name>.
inline fs::path scratch() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path d = fs::temp_directory_path() / "arcsim-sweep-tests" / std::to_string(::getpid()) /
                     (std::string(info->test_suite_name()) + "." + info->name());
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Run the built arcsim with `args` (shell words) in folder `cwd`, with `env` (VAR=value
// words) added to its environment.
inline CmdResult arcsim(const std::string& args, const fs::path& cwd, const std::string& env = "") {
  const std::string out = (cwd / ".stdout").string(), err = (cwd / ".stderr").string();
  const std::string cmd = "cd '" + cwd.string() + "' && " + env + " " + std::string(ARCSIM_BIN) + " " + args +
                          " >" + out + " 2>" + err;
  const int st = std::system(cmd.c_str());
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(out), slurp(err)};
}

inline size_t count_lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

// Prints "N passed, M failed" after all tests (the project's test convention).
class CountPrinter : public ::testing::Environment {
 public:
  void TearDown() override {
    const auto* u = ::testing::UnitTest::GetInstance();
    std::printf("%d passed, %d failed\n", u->successful_test_count(), u->failed_test_count());
  }
};

}  // namespace sweeptest

#define SWEEP_TEST_COUNTS \
  static auto* const sweep_count_env = ::testing::AddGlobalTestEnvironment(new sweeptest::CountPrinter)
