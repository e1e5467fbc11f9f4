#include "atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

#include "error.h"

namespace fs = std::filesystem;

namespace arc {

namespace {

// Signal-safe registry: fixed slots, each a path and a flag; the handler only reads them
// and calls unlink(), which is async-signal-safe.
constexpr size_t kSlots = 512, kPathMax = 4096;
std::array<char[kPathMax], kSlots> g_paths;
std::array<std::atomic<bool>, kSlots> g_claimed{}, g_used{};  // slot taken / path complete
std::atomic<bool> g_installed{false};

extern "C" void remove_scratch_and_die(int sig) {
  for (size_t i = 0; i < kSlots; ++i)
    if (g_used[i].load()) ::unlink(g_paths[i]);
  std::signal(sig, SIG_DFL);
  ::raise(sig);
}

void install_handlers() {
  if (g_installed.exchange(true)) return;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    ::sigaction(sig, nullptr, &old);
    if (old.sa_handler == SIG_IGN) continue;  // e.g. nohup: keep ignoring
    struct sigaction sa {};
    sa.sa_handler = remove_scratch_and_die;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

std::string host_name() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

}  // namespace

int register_scratch(const std::string& path) {
  install_handlers();
  if (path.size() >= kPathMax) return -1;
  for (size_t i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!g_claimed[i].compare_exchange_strong(expected, true)) continue;
    // The handler sees the slot only once its path is complete.
    std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
    g_used[i].store(true);
    return static_cast<int>(i);
  }
  return -1;  // all slots taken: the file is still removed by its owner, just not on a signal
}

void forget_scratch(int handle) {
  if (handle < 0 || static_cast<size_t>(handle) >= kSlots) return;
  g_used[static_cast<size_t>(handle)].store(false);
  g_claimed[static_cast<size_t>(handle)].store(false);
}

namespace {
// Where writing `path` lands: a symbolic link is followed to the file it names (renaming over
// the link would replace the link, not its target), a dangling one included.
std::string through_links(const std::string& path) {
  fs::path p(path);
  std::error_code ec;
  for (int hops = 0; fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
    if (hops == 40) throw Error(path + ": too many levels of symbolic links");
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) throw Error(path + ": cannot read the symbolic link: " + ec.message());
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  return p.string();
}

// The extension stays last, so tools that pick a format by it (matplotlib) write the right one.
std::string temp_name(const std::string& path, long pid) {
  const fs::path p(path);
  return (p.parent_path() / (p.stem().string() + ".tmp-" + host_name() + "-" + std::to_string(pid) +
                             p.extension().string()))
      .string();
}
}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) throw Error("empty output path");
  const std::string named = path_;
  path_ = through_links(path_);
  std::error_code ec;
  const fs::file_status st = fs::status(path_, ec);
  if (fs::is_directory(st)) throw Error(named + ": is a directory, not an output file");
  // A device, FIFO or socket would be replaced by the rename (as root, /dev/null itself):
  // results go to regular files only.
  if (fs::exists(st) && !fs::is_regular_file(st))
    throw Error(named + ": is not a regular file (a device, FIFO or socket); give a file path for the output");
  const fs::path parent = fs::path(path_).parent_path();
  if (!parent.empty() && !fs::is_directory(parent, ec))
    throw Error(named + ": cannot create the file: folder " + parent.string() + " does not exist");
  tmp_ = temp_name(path_, ::getpid());
  // Made here (empty; whoever writes it truncates it), so a folder that takes no new file
  // (read-only, /proc) is an error naming the user's path, not the temporary one.
  const int fd = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const std::string why = std::strerror(errno);
    throw Error(named + ": cannot create the file: " + why);
  }
  ::close(fd);
  slot_ = register_scratch(tmp_);
}

std::string AtomicFile::temp_path_of(const std::string& path, long pid) { return temp_name(through_links(path), pid); }

AtomicFile::~AtomicFile() {
  if (!done_) ::unlink(tmp_.c_str());
  forget_scratch(slot_);
}

void AtomicFile::commit() {
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    throw Error("cannot write " + path_ + ": " + why);
  }
  done_ = true;
}

void write_atomic(const std::string& path, const std::string& text) {
  AtomicFile f(path);
  const int fd = ::open(f.temp_path().c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw Error("cannot write " + path + ": " + std::strerror(errno));
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      throw Error("cannot write " + path + ": " + why);
    }
    done += static_cast<size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) throw Error("cannot write " + path + ": " + std::strerror(errno));
  f.commit();
}

namespace {
std::string resolved(const std::string& p) {
  std::error_code ec;
  fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::absolute(p).lexically_normal().string() : r.string();
}
}  // namespace

void check_outputs(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto& [oflag, opath] = outputs[i];
    if (opath.empty()) continue;
    const std::string o = resolved(opath);
    for (const auto& [iflag, ipath] : inputs)
      if (!ipath.empty() && resolved(ipath) == o)
        throw Error(oflag + " " + opath + ": is also the input " + iflag + "; refusing to overwrite it");
    for (size_t j = 0; j < i; ++j)
      if (!outputs[j].second.empty() && resolved(outputs[j].second) == o)
        throw Error(oflag + " " + opath + ": is also the output " + outputs[j].first + "; give two paths");
  }
}

}  // namespace arc
