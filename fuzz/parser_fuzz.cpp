// libFuzzer target for the Python tokenizer + parser + AST dump (docs/parser.md).
// A DiagnosticError is the expected way to reject input; any other exception, a crash, a
// sanitizer report or a timeout is a bug.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "base/diagnostic.h"
#include "base/source.h"
#include "lang/ast_dump.h"
#include "lang/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = std::make_shared<nki::SourceFile>(
      "fuzz.py", std::string(reinterpret_cast<const char*>(data), size));
  try {
    nki::py::Module m = nki::py::parse_module(file);
    std::string dump = nki::py::dump_ast(m);
    (void)dump;
  } catch (const nki::DiagnosticError& e) {
    // Every syntax error must carry a location inside the file (or line 0 only when empty).
    if (e.diagnostic().code != "syntax") __builtin_trap();
  }
  return 0;
}
