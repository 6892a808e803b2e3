// Python 3.11 parser: source text -> nki::py AST (lang/ast.h).
//
// Hand-written recursive descent following the Python 3.11 grammar (docs/parser.md). Errors are
// thrown as nki::DiagnosticError with code "syntax", a CPython-like message ("invalid syntax",
// "expected ':'", "unexpected indent", "'(' was never closed", ...) and the 1-based line and
// column of the offending token. Columns everywhere are 1-based BYTE columns, so that
// `col - 1` equals CPython's col_offset.
#pragma once

#include <string_view>

#include "base/source.h"
#include "lang/ast.h"

namespace nki::py {

// Parses a whole file (CPython's `ast.parse(source, mode="exec")`).
Module parse_module(SourceFilePtr file);

// Parses `text` as a file; diagnostics name `path`. Convenience for tests and tools.
Module parse_module_text(std::string_view text, std::string path = "<string>");

// Limits that turn pathological input into a syntax error instead of a stack overflow.
inline constexpr int kMaxParseNesting = 1000;     // nested expressions/blocks (stack frames)
inline constexpr int kMaxTreeDepth = 3000;  // AST depth, incl. long `a+b+...` chains

}  // namespace nki::py
