// libFuzzer target: the GPU-config loader on arbitrary TOML text, then an override taken from
// the same bytes. Every input must parse or throw arc::Error with a message; nothing else.
#include <cstdint>
#include <string>
#include <string_view>

#include "error.h"
#include "gpu_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto cfg = arc::config::parse_gpu(text, "fuzz.toml");
    // Reuse the tail of the input as a --set override on a valid config.
    const auto nl = text.rfind('\n');
    if (nl != std::string_view::npos) arc::config::apply_override(cfg, std::string(text.substr(nl + 1)));
    for (const auto& p : arc::config::gpu_params()) (void)arc::config::value_text(cfg, p.key);
  } catch (const arc::Error& e) {
    if (std::string_view(e.what()).empty()) __builtin_trap();  // errors must say something
  }
  return 0;
}
