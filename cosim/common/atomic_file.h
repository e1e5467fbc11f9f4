// Output files that never appear half-written: every file an arcsim job writes goes to a
// temporary file beside its final path and is renamed into place only when complete
// (AtomicFile, write_atomic). While a job runs, its temporary files are registered, and
// SIGINT/SIGTERM/SIGHUP remove them before the process dies, so an interrupted run leaves
// neither a truncated file at a final path nor a stray temporary file.
//
// check_outputs() refuses an output path that names an input (or another output), so a
// mistyped `--wave x --trace x` cannot overwrite the trace it reads.
#pragma once
#include <string>
#include <vector>

namespace arc {

class AtomicFile {
 public:
  // Chooses "<stem>.tmp-<host>-<pid><ext>" beside `path` and registers it for removal on a signal.
  // A symbolic link is followed: the file it names is written (path() is that file). Throws
  // arc::Error when the folder does not exist, or `path` is a folder or another non-regular
  // file (a device, FIFO or socket, which the rename would replace).
  explicit AtomicFile(std::string path);
  ~AtomicFile();  // removes the temporary file unless commit() ran
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::string& temp_path() const { return tmp_; }
  // The temporary file process `pid` uses for `path` (after links): a parent removes what a
  // child that died by a signal left behind.
  static std::string temp_path_of(const std::string& path, long pid);
  const std::string& path() const { return path_; }
  void commit();  // renames the (closed) temporary file to path(); throws arc::Error

 private:
  std::string path_, tmp_;
  int slot_ = -1;
  bool done_ = false;
};

// `text` to `path` atomically: written to an AtomicFile, fsync'ed, renamed.
void write_atomic(const std::string& path, const std::string& text);

// Registers a scratch file (not a result) for removal on SIGINT/SIGTERM/SIGHUP; returns a
// handle for forget_scratch(). Installs the signal handlers on first use.
int register_scratch(const std::string& path);
void forget_scratch(int handle);

// Throws arc::Error "<out_flag> <path>: is also <in_flag>; refusing to overwrite it" when an
// output names the same file as an input or as another output (after resolving links and
// relative paths). Empty paths are skipped. Pairs are (flag, path).
using NamedPath = std::pair<std::string, std::string>;
void check_outputs(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

}  // namespace arc
