// One instruction line of a .traceg, and the number syntax it uses (internal to arc_import).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "traceg.h"

namespace arc::import {

// An unsigned integer in base 10 or 16 (base 16 takes an optional 0x); nullopt if s is
// anything else or overflows 64 bits.
std::optional<uint64_t> parse_unsigned(std::string_view s, int base);

// True when op is SASS opcode syntax: an upper-case name, then '.'-separated modifiers.
bool is_sass_opcode(std::string_view op);

// Parses "PC mask dest_num [R..] opcode src_num [R..] mem_width [form addresses...]" (tracer
// version >= 3; older versions start with "tb_x tb_y tb_z warp_in_tb"). Fills `in` (not
// in.line) and returns "" or what is wrong, without the file and line.
std::string parse_instr_line(const std::string& line, int tracer_version, SassInstr& in);

}  // namespace arc::import
