// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits: the key of the area cache.
#pragma once
#include <string>
#include <string_view>

namespace arc::area {

std::string sha256_hex(std::string_view data);

}  // namespace arc::area
