// arc::Error: the one exception type for bad input (file, trace, config, parameter). The CLI
// prints its message as one line, "arcsim: error: <what>", and exits non-zero.
#pragma once
#include <stdexcept>
#include <string>

namespace arc {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// The one wording for a std::bad_alloc that reaches a top level (the CLI's, the simulation
// child's): where it happened, e.g. " in the timing model", or "".
inline std::string out_of_memory(const std::string& where) {
  return "out of memory" + where + " (the run needs more memory than this machine gives the process)";
}

}  // namespace arc
