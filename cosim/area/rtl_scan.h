// Discovery of the ARC RTL for the area flow: which modules exist in rtl/ (one module per file,
// named like the file), their parameters (settable ones have a literal default; ones whose
// default is an expression, e.g. $clog2(Lanes), are derived), and who instantiates whom.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace arc::area {

struct RtlParam {
  std::string name;
  std::string default_expr;  // as written
  bool derived = false;      // default is an expression of other parameters
  std::int64_t default_value() const;  // the literal default (not for derived parameters)
};

struct RtlModule {
  std::string name;
  std::string file;                    // absolute path
  std::vector<RtlParam> params;        // in declaration order
  std::set<std::string> instantiates;  // other discovered modules used directly
  const RtlParam* find_param(const std::string& n) const;
};

struct RtlTree {
  std::string dir;
  std::vector<RtlModule> modules;  // sorted by name (packages excluded)
  const RtlModule* find(const std::string& name) const;
  // Modules reachable from `top` (itself included).
  std::set<std::string> closure(const std::string& top) const;
  // Modules no other module instantiates.
  std::vector<std::string> roots() const;
};

// Scan dir/*.sv (not *_pkg.sv). Throws arc::Error if a file's module is not named like it.
RtlTree scan_rtl(const std::string& dir);

}  // namespace arc::area
