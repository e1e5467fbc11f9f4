// Child processes, the one fork/exec helper of arcsim (sweep points, trace generation, plot
// scripts): start a program with its streams in files (no shell, so no quoting), wait for it,
// and read what it said. run_script() runs a Python plot script the way every job does:
// $ARCSIM_PYTHON (else the build's plotting Python), a failure as one arc::Error line and the
// traceback in a log file. (The SystemC run of arc::sim forks without exec: cosim/sim/run.cpp.)
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace arc {

// CPU time this process has used, in seconds (CLOCK_PROCESS_CPUTIME_ID): the timing model's
// speed measure, immune to other load on the machine.
double process_cpu_seconds();

// Start argv[0] (a path, or a name looked up in PATH) with argv, in folder `cwd`, stdin from
// `in_path` and stdout and stderr into the given files ("" = /dev/null). Throws arc::Error if
// it cannot fork.
pid_t spawn(const std::vector<std::string>& argv, const std::string& cwd, const std::string& out_path,
            const std::string& err_path, const std::string& in_path = "");

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

// The Python that runs plot scripts: $ARCSIM_PYTHON if set, else `build_default`.
std::string python_exe(const std::string& build_default);

// Runs `python script args...` with `stdin_text` on its stdin. On failure throws one line,
// "<what> failed (<exit>): <last stderr line>; full output in <log>", the log kept in $TMPDIR.
void run_script(const std::string& python, const std::string& script, const std::vector<std::string>& args,
                const std::string& what, const std::string& stdin_text = "");

// The running arcsim executable (/proc/self/exe resolved).
std::string self_exe();

}  // namespace arc
