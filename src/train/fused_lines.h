// The line translation of src/train/fused_templates.cpp, shared with the other generators of
// synthesised tasks (src/train/fused_axis_templates.cpp): the reference's forward() lines, and
// their translation onto float32 [P, C] tiles (rows on partitions, C on the free axis).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/dtype.h"

namespace nki::train::lines {

struct Module {
  std::string type;    // LayerNorm, BatchNorm1d, PReLU, Linear
  std::string eps = "1e-05";
  bool bias = true;    // Linear
};

struct Reference {
  std::vector<std::string> args;   // forward(self, ...) parameters
  std::vector<std::string> lines;  // body statements, "return y" excluded
  std::map<std::string, Module> modules;
};

// reference.py of a task directory; nullopt when forward() does not end in `return y`.
std::optional<Reference> read_reference(const std::string& dir);

// How a kernel argument enters the row computation.
enum class Access { Full, Column, Row, Scalar };

struct Operand {
  std::string arg;   // kernel parameter name
  std::string var;   // NKI variable holding its float32 tile
  Access access;
  DType dtype;
  std::vector<int64_t> shape;
};

struct Translation {
  std::vector<std::string> body;     // statements inside the tile loop, ending in `v = ...`
  std::set<std::string> used;        // python names of the operands read
  bool reduced = false;              // v is one value per row
  std::vector<std::string> summary;  // short names of the lines, for the plan
  bool extended = false;             // a line needed a RowExtension rule (fused_templates.h)
  bool row_index = false;            // a line reads #I / #J (matrix row, column)
};

// Translates ref.lines[first, end) over rows of length C. With `y_defined`, `y` is already the
// running value `v` (an epilogue); otherwise the lines may only rewrite inputs and temporaries
// (a prologue) and need not assign y. nullopt when any line is outside the table.
std::optional<Translation> translate_lines(const Reference& ref, const std::map<std::string, Operand>& ops, int64_t C,
                                           size_t first, size_t end, bool y_defined);

// Loads of the used [C] rows and [1] scalars, broadcast once to [rows, C] (before the tile loop).
void emit_broadcast_loads(std::ostringstream& s, const std::map<std::string, Operand>& ops, const std::set<std::string>& used,
                     int64_t rows, int64_t C, const std::string& ind);

// The plan sentence of an episode: the layout, then the lines' short names.
std::string plan_sentence(const std::string& layout, const Translation& tr);

}  // namespace nki::train::lines
