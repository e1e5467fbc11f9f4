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

}  // namespace arc
