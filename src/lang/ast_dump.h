// Canonical text dump of a Python AST, byte-for-byte identical to what tools/pyast/dump.py
// prints for CPython's own `ast.parse` of the same file (the differential test compares them).
//
// Format (one node or field per line, two-space indentation steps):
//   NodeType @LINE:COL-END_LINE:END_COL      (positions as CPython: line 1-based, col 0-based
//     field: <scalar>                         byte offsets; omitted for nodes without them)
//     field: [N]                              a list of N items, each indented two more
//     field:                                  a child node on the following lines
//     op: Add                                 field-less nodes (operators, contexts) inline
// Scalars: None, ints, 'escaped str' (UTF-8 bytes; printable ASCII kept, else \xHH), and for
// constants `int N`, `float 0xBITS` (IEEE-754 bits, exact), `complex 0xBITS` (imaginary part),
// `str '...'`, `bytes '...'`, True, False, None, Ellipsis.
#pragma once

#include <string>

#include "lang/ast.h"

namespace nki::py {

std::string dump_ast(const Module& m);

}  // namespace nki::py
