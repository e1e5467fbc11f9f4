#include "proc.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ctime>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "atomic_file.h"
#include "error.h"

namespace arc {

double process_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

pid_t spawn(const std::vector<std::string>& argv, const std::string& cwd, const std::string& out_path,
            const std::string& err_path, const std::string& in_path) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The files are opened here, before the fork, so they exist (and a caller's signal cleanup
  // can remove them) before the child runs; a relative path is relative to `cwd`.
  auto at = [&](const std::string& p, const char* none) {
    if (p.empty()) return std::string(none);
    return !cwd.empty() && p[0] != '/' ? cwd + "/" + p : p;
  };
  auto open_or_throw = [&](const std::string& p, int flags) {
    const int fd = ::open(p.c_str(), flags | O_CLOEXEC, 0644);
    if (fd < 0) throw Error(fmt::format("cannot start {}: {}: {}", argv.at(0), p, std::strerror(errno)));
    return fd;
  };
  const int fi = open_or_throw(at(in_path, "/dev/null"), O_RDONLY);
  const int fo = open_or_throw(at(out_path, "/dev/null"), O_WRONLY | O_CREAT | O_TRUNC);
  const int fe = err_path == out_path ? ::fcntl(fo, F_DUPFD_CLOEXEC, 0)
                                      : open_or_throw(at(err_path, "/dev/null"), O_WRONLY | O_CREAT | O_TRUNC);
  const pid_t pid = ::fork();
  if (pid == 0) {  // child: only async-signal-safe calls from here on
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    if (fe < 0 || ::dup2(fi, 0) < 0 || ::dup2(fo, 1) < 0 || ::dup2(fe, 2) < 0) ::_exit(126);
    ::execvp(args[0], args.data());
    const char msg[] = "arcsim: error: cannot execute ";
    (void)!::write(2, msg, sizeof msg - 1);
    (void)!::write(2, args[0], std::strlen(args[0]));
    (void)!::write(2, "\n", 1);
    ::_exit(127);
  }
  const int fork_errno = errno;
  ::close(fi);
  ::close(fo);
  if (fe >= 0) ::close(fe);
  if (pid < 0) throw Error(fmt::format("cannot start {}: fork: {}", argv.at(0), std::strerror(fork_errno)));
  return pid;
}

std::string Exit::describe() const {
  return signal ? fmt::format("killed by signal {}", signal) : fmt::format("exit {}", code);
}

Exit decode_status(int st) {
  Exit e;
  if (WIFEXITED(st)) e.code = WEXITSTATUS(st);
  else if (WIFSIGNALED(st)) e.signal = WTERMSIG(st);
  return e;
}

Exit wait_for(pid_t pid) {
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) throw Error(fmt::format("waitpid: {}", std::strerror(errno)));
  return decode_status(st);
}

Captured run_capture(const std::vector<std::string>& argv, const std::string& cwd, const std::string& scratch) {
  const std::string base = fmt::format("{}/.capture.{}", scratch, ::getpid());
  Captured c;
  const int so = register_scratch(base + ".out"), se = register_scratch(base + ".err");
  c.exit = wait_for(spawn(argv, cwd, base + ".out", base + ".err"));
  c.out = read_file(base + ".out");
  c.err = read_file(base + ".err");
  std::error_code ec;
  std::filesystem::remove(base + ".out", ec);
  std::filesystem::remove(base + ".err", ec);
  forget_scratch(so);
  forget_scratch(se);
  return c;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string last_line(const std::string& text) {
  std::istringstream ss(text);
  std::string line, last;
  while (std::getline(ss, line)) {
    const auto b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos) continue;
    last = line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
  }
  return last;
}

std::string self_exe() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find the arcsim executable (/proc/self/exe)");
  return p.string();
}

std::string python_exe(const std::string& build_default) {
  if (const char* p = std::getenv("ARCSIM_PYTHON"); p && *p) return p;
  return build_default;
}

void run_script(const std::string& python, const std::string& script, const std::vector<std::string>& args,
                const std::string& what, const std::string& stdin_text) {
  const char* tmpdir = std::getenv("TMPDIR");
  const std::string base = fmt::format("{}/arcsim-{}.{}", tmpdir && *tmpdir ? tmpdir : "/tmp",
                                       std::filesystem::path(script).stem().string(), ::getpid());
  const std::string in = base + ".in", log = base + ".log";
  std::vector<std::string> argv = {python, script};
  argv.insert(argv.end(), args.begin(), args.end());
  const int in_slot = register_scratch(in);
  {
    std::ofstream f(in, std::ios::binary);
    f << stdin_text;
    if (!f) throw Error(fmt::format("{}: cannot write its input {}", what, in));
  }
  const Exit e = wait_for(spawn(argv, "", log, log, in));
  std::error_code ec;
  std::filesystem::remove(in, ec);
  forget_scratch(in_slot);
  if (e.ok()) {
    std::filesystem::remove(log, ec);
    return;
  }
  std::string last = last_line(read_file(log));
  if (e.code == 127) last = "cannot execute " + python + " (set ARCSIM_PYTHON to a Python with matplotlib)";
  throw Error(fmt::format("{} failed ({}): {}; full output in {}", what, e.describe(),
                          last.empty() ? "no message" : last, log));
}

}  // namespace arc
