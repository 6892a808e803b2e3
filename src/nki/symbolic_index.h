// Diagnostics for Python code that needs a concrete value from a symbolic loop index.
//
// The legacy tracer runs a device-loop body once with a symbolic induction variable, and a plain
// Python range() in a kernel is such a loop: "Neuron compiler transforms any usage of Python
// range() API into nl.sequential_range() under the hood" (general/nki/programming_model.rst at
// SDK 2.24 commit 86051b85; the nl.sequential_range docstring in
// general/nki/api/nki/language/__init__.py says the same). Its index is an nki Index, "the result
// of the affine expression over ... loop variables" (programming_model.rst), not a Python int, so
// min()/max()/int()/range()/list indexing cannot compute with it.
#pragma once

#include <string>

#include "ir/ir.h"

namespace nki::front {

class Tracer;

// What the symbolic value `e` is made of, for messages: "`t` is the index of a Python range()
// loop, which the compiler traces as nl.sequential_range"; empty when `e` has no symbolic atom.
std::string describe_symbolic(Tracer& t, const ir::ScalarExpr& e);

// Fix suggestion shared by the symbolic-index diagnostics.
std::string symbolic_index_hint(const std::string& use);

// Raises `symbolic_loop_index` (a project code: the SDK 2.24 error manual has none for this):
// `use` (e.g. "min()") needs a Python int and `e` is symbolic.
[[noreturn]] void symbolic_index_error(Tracer& t, const ir::ScalarExpr& e, const std::string& use);

}  // namespace nki::front
