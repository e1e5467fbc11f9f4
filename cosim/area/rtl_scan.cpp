// RTL discovery for the area flow (see rtl_scan.h). A light scanner, not a parser: it reads
// module headers written in the project's style (lowRISC: `parameter int Name = value`).
#include "rtl_scan.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "error.h"

namespace arc::area {
namespace fs = std::filesystem;

namespace {

std::string strip_comments(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
      out += '\n';
    } else if (s.compare(i, 2, "/*") == 0) {
      const auto e = s.find("*/", i + 2);
      i = e == std::string::npos ? s.size() : e + 1;
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

std::int64_t RtlParam::default_value() const {
  if (derived) throw Error("RTL parameter " + name + " is derived (" + default_expr + "), it has no literal default");
  const auto q = default_expr.find('\'');
  if (q == std::string::npos) return std::stoll(default_expr);
  size_t i = q + 1;
  if (default_expr[i] == 's' || default_expr[i] == 'S') ++i;
  const char base = static_cast<char>(std::tolower(static_cast<unsigned char>(default_expr[i])));
  std::string digits;
  for (char c : default_expr.substr(i + 1))
    if (c != '_') digits += c;
  return std::stoll(digits, nullptr, base == 'h' ? 16 : base == 'b' ? 2 : base == 'o' ? 8 : 10);
}

const RtlParam* RtlModule::find_param(const std::string& n) const {
  for (const auto& p : params)
    if (p.name == n) return &p;
  return nullptr;
}

const RtlModule* RtlTree::find(const std::string& name) const {
  for (const auto& m : modules)
    if (m.name == name) return &m;
  return nullptr;
}

std::set<std::string> RtlTree::closure(const std::string& top) const {
  std::set<std::string> seen;
  std::vector<std::string> todo{top};
  while (!todo.empty()) {
    const std::string n = todo.back();
    todo.pop_back();
    if (!seen.insert(n).second) continue;
    if (const RtlModule* m = find(n))
      for (const auto& c : m->instantiates) todo.push_back(c);
  }
  return seen;
}

std::vector<std::string> RtlTree::roots() const {
  std::set<std::string> used;
  for (const auto& m : modules) used.insert(m.instantiates.begin(), m.instantiates.end());
  std::vector<std::string> r;
  for (const auto& m : modules)
    if (!used.count(m.name)) r.push_back(m.name);
  return r;
}

RtlTree scan_rtl(const std::string& dir) {
  RtlTree tree;
  tree.dir = dir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error(dir + ": RTL folder not found");
  std::map<std::string, std::string> texts;
  for (const auto& e : fs::directory_iterator(dir)) {
    const auto p = e.path();
    const std::string stem = p.stem().string();
    const bool is_pkg = stem.size() > 4 && stem.compare(stem.size() - 4, 4, "_pkg") == 0;
    if (p.extension() != ".sv" || is_pkg) continue;
    std::ifstream in(p);
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string text = strip_comments(ss.str());
    static const std::regex mod_re(R"(\bmodule\s+([A-Za-z_]\w*))");
    std::smatch m;
    if (!std::regex_search(text, m, mod_re)) continue;  // e.g. an include-only file
    if (m[1] != p.stem().string())
      throw Error(p.string() + ": declares module '" + m[1].str() + "'; one module per file, named like the file");
    RtlModule mod;
    mod.name = m[1];
    mod.file = fs::absolute(p).string();
    // Header = from the module keyword to the end of the port list.
    const size_t start = static_cast<size_t>(m.position(0));
    const size_t end = text.find(");", start);
    const std::string header = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    static const std::regex par_re(
        R"(\bparameter\s+(?:int\s+|integer\s+|int\s+unsigned\s+|logic\s*(?:\[[^\]]*\])?\s*)?([A-Za-z_]\w*)\s*=\s*([^,\n]+))");
    for (auto it = std::sregex_iterator(header.begin(), header.end(), par_re); it != std::sregex_iterator(); ++it) {
      RtlParam rp;
      rp.name = (*it)[1];
      std::string def = trim((*it)[2]);
      // The last parameter's default may run into the ") (" that closes the parameter list.
      if (auto close = def.find(") ("); close != std::string::npos) def = trim(def.substr(0, close));
      while (!def.empty() && def.back() == ')' &&
             std::count(def.begin(), def.end(), '(') < std::count(def.begin(), def.end(), ')'))
        def = trim(def.substr(0, def.size() - 1));
      rp.default_expr = def;
      rp.derived = !std::regex_match(def, std::regex(R"(-?[0-9]+|[0-9]*'[sS]?[dDhHbBoO][0-9a-fA-F_]+)"));
      mod.params.push_back(rp);
    }
    tree.modules.push_back(mod);
    texts[mod.name] = text;
  }
  std::sort(tree.modules.begin(), tree.modules.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  for (auto& mod : tree.modules) {
    const std::string& text = texts[mod.name];
    for (const auto& other : tree.modules) {
      if (other.name == mod.name) continue;
      const std::regex inst_re("\\b" + other.name + R"(\s*(#|[A-Za-z_]\w*\s*\())");
      if (std::regex_search(text, inst_re)) mod.instantiates.insert(other.name);
    }
  }
  if (tree.modules.empty()) throw Error(dir + ": no RTL modules (*.sv) found");
  return tree;
}

}  // namespace arc::area
