// nki-pyast-dump: prints the canonical AST dump (lang/ast_dump.h) of Python files.
//
//   nki-pyast-dump FILE          dump of FILE; on a syntax error prints the diagnostic to stderr,
//                                'ERROR LINE MESSAGE' to stdout, and exits 1
//   nki-pyast-dump --batch LIST  for each path in LIST: '=== PATH' then the dump or the ERROR line
//                                (same output as tools/pyast/dump.py --batch)
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "base/diagnostic.h"
#include "lang/ast_dump.h"
#include "lang/parser.h"

namespace {

// Returns true on success. Writes the dump or the ERROR line to `out`.
bool dump_file(const std::string& path, std::string& out, bool verbose) {
  try {
    nki::py::Module m = nki::py::parse_module(nki::load_source_file(path));
    out += nki::py::dump_ast(m);
    return true;
  } catch (const nki::DiagnosticError& e) {
    const nki::Diagnostic& d = e.diagnostic();
    if (verbose) std::cerr << nki::render_text(d);
    out += "ERROR " + std::to_string(d.line) + " " + d.message + "\n";
  } catch (const nki::IoError& e) {
    out += std::string("ERROR 0 ") + e.what() + "\n";
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  if (argc == 3 && std::string(argv[1]) == "--batch") {
    std::ifstream list(argv[2]);
    if (!list) {
      std::cerr << "nki-pyast-dump: cannot open " << argv[2] << "\n";
      return 2;
    }
    std::string path;
    while (std::getline(list, path)) {
      if (path.empty()) continue;
      std::string out = "=== " + path + "\n";
      dump_file(path, out, false);
      std::cout << out;
    }
    return 0;
  }
  if (argc != 2) {
    std::cerr << "usage: nki-pyast-dump FILE | --batch LIST\n";
    return 2;
  }
  std::string out;
  bool ok = dump_file(argv[1], out, true);
  std::cout << out;
  return ok ? 0 : 1;
}
