// Child processes for arc::sweep: start a program with its output in files (no shell, so
// no quoting), wait for it, and read what it said. Also the atomic file write every result
// goes through.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace arc::sweep {

// Start argv[0] (a path) with argv, in folder `cwd`, stdout and stderr into the given files
// ("" = /dev/null). Throws arc::Error if it cannot fork.
pid_t spawn(const std::vector<std::string>& argv, const std::string& cwd, const std::string& out_path,
            const std::string& err_path);

struct Exit {
  int code = -1;    // exit status, or -1 when killed
  int signal = 0;   // the signal that killed it
  bool ok() const { return code == 0; }
  std::string describe() const;  // "exit 2" / "killed by signal 9"
};
Exit decode_status(int wait_status);
Exit wait_for(pid_t pid);

// Run to completion and capture both streams (through temporary files in `scratch`).
struct Captured {
  Exit exit;
  std::string out, err;
};
Captured run_capture(const std::vector<std::string>& argv, const std::string& cwd, const std::string& scratch);

std::string read_file(const std::string& path);
std::string last_line(const std::string& text);  // last non-empty line, trimmed

// Write `text` to `path` atomically: a temporary file beside it, flushed, then renamed.
void write_atomic(const std::string& path, const std::string& text);

// The running arcsim executable (/proc/self/exe resolved).
std::string self_exe();

}  // namespace arc::sweep
