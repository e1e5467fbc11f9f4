#include "proc.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "error.h"

namespace arc::sweep {

pid_t spawn(const std::vector<std::string>& argv, const std::string& cwd, const std::string& out_path,
            const std::string& err_path) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(fmt::format("cannot start {}: fork: {}", argv.at(0), std::strerror(errno)));
  if (pid == 0) {  // child: only async-signal-safe calls from here on
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    const char* out = out_path.empty() ? "/dev/null" : out_path.c_str();
    const char* err = err_path.empty() ? "/dev/null" : err_path.c_str();
    const int fo = ::open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int fe = ::open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int fi = ::open("/dev/null", O_RDONLY);
    if (fo < 0 || fe < 0 || fi < 0) ::_exit(126);
    ::dup2(fi, 0);
    ::dup2(fo, 1);
    ::dup2(fe, 2);
    ::execv(args[0], args.data());
    const char msg[] = "arcsim: error: cannot execute the child program\n";
    (void)!::write(2, msg, sizeof msg - 1);
    ::_exit(127);
  }
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
  c.exit = wait_for(spawn(argv, cwd, base + ".out", base + ".err"));
  c.out = read_file(base + ".out");
  c.err = read_file(base + ".err");
  std::error_code ec;
  std::filesystem::remove(base + ".out", ec);
  std::filesystem::remove(base + ".err", ec);
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

void write_atomic(const std::string& path, const std::string& text) {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::string tmp = fmt::format("{}.tmp.{}.{}", path, host, ::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw Error(fmt::format("cannot write {}: {}", tmp, std::strerror(errno)));
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      throw Error(fmt::format("cannot write {}: {}", tmp, std::strerror(errno)));
    }
    done += static_cast<size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced || ::rename(tmp.c_str(), path.c_str()) != 0)
    throw Error(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
}

std::string self_exe() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find the arcsim executable (/proc/self/exe)");
  return p.string();
}

}  // namespace arc::sweep
