// Shared pieces of the fused_axis generators (fused_axis_common.h).
#include "train/fused_axis_common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <regex>
#include <sstream>

namespace nki::train::axis {

const char* const kHeader =
    "import neuronxcc.nki as nki\n"
    "import neuronxcc.nki.language as nl\n\n\n";

// Rows per tile: the largest divisor of `rows` up to 128, or nothing when that leaves tiles of
// a handful of partitions (a prime row count; no masked variant is written here).
std::optional<int64_t> tile_rows(int64_t rows) {
  int64_t p = divisor_at_most(rows, 128);
  if (p < 8 && p != rows) return std::nullopt;
  return p;
}

std::string num(int64_t v) { return std::to_string(v); }

// `i * P:(i + 1) * P` for loop variable i.
std::string span(const std::string& i, int64_t p) { return i + " * " + num(p) + ":(" + i + " + 1) * " + num(p); }

std::string regex_quoted(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) r += '\\';
    r += c;
  }
  return r;
}

// 1 / sqrt(d) written out to full double precision.
std::string fmt_scale(int64_t d) {
  std::ostringstream o;
  o.precision(17);
  o << 1.0 / std::sqrt(static_cast<double>(d));
  return o.str();
}

// Whether a kernel parameter is named like one of a generator's loop indices or tiles.
bool clashes(const std::vector<std::string>& args, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (std::find(args.begin(), args.end(), n) != args.end()) return true;
  return false;
}

bool has_row_op(const Translation& t) {
  for (const std::string& l : t.body)
    if (l.find("axis=1") != std::string::npos) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// The reference around its seed line (a forward() with an nn.Linear is left to the block forms).

std::optional<Split> split_reference(const TaskSpec& t) {
  std::optional<Reference> ref = lines::read_reference(t.dir);
  if (!ref || ref->args.size() != t.inputs.size() || ref->args.empty()) return std::nullopt;
  for (const auto& [n, m] : ref->modules)
    if (m.type == "Linear") return std::nullopt;
  for (size_t i = 0; i < ref->lines.size(); ++i)
    if (ref->lines[i].rfind("y = ", 0) == 0) return Split{*ref, i, ref->lines[i].substr(4)};
  return std::nullopt;
}

bool loadable(DType d) { return is_float(d) || d == DType::Int32; }

// Prologue operands: the first input itself (variable px_<name>), [C] rows (only when the
// tile's free axis is the input's last axis) and [1] scalars.
std::map<std::string, Operand> prologue_ops(const TaskSpec& t, const std::vector<std::string>& args, int64_t C, bool rows_ok) {
  std::vector<TensorSpec> all = t.kernel_args();
  std::map<std::string, Operand> ops;
  ops[all[0].name] = Operand{args[0], "px_" + args[0], Access::Full, all[0].dtype, all[0].shape};
  for (size_t i = 1; i < all.size(); ++i) {
    const TensorSpec& s = all[i];
    if (!is_float(s.dtype)) continue;
    Operand o{args[i], "px_" + args[i], Access::Scalar, s.dtype, s.shape};
    if (rows_ok && s.shape == std::vector<int64_t>{C}) o.access = Access::Row;
    else if (product(s.shape) != 1) continue;
    ops[s.name] = o;
  }
  return ops;
}

// Epilogue operands over the output: tensors of the output's shape (Full), [C] rows (when the
// tile's free axis is the output's last axis) and [1] scalars; the seed's own inputs (the
// first `seed_inputs`) are not among them.
std::map<std::string, Operand> epilogue_ops(const TaskSpec& t, const std::vector<std::string>& args, size_t seed_inputs, int64_t C,
                                            bool rows_ok) {
  std::vector<TensorSpec> all = t.kernel_args();
  const std::vector<int64_t>& o = t.outputs[0].shape;
  std::map<std::string, Operand> ops;
  for (size_t i = seed_inputs; i < all.size(); ++i) {
    const TensorSpec& s = all[i];
    if (!loadable(s.dtype)) continue;
    Operand op{args[i], "t_" + args[i], Access::Full, s.dtype, s.shape};
    if (s.shape == o) op.access = Access::Full;
    else if (rows_ok && s.shape == std::vector<int64_t>{C}) op.access = Access::Row;
    else if (product(s.shape) == 1 && is_float(s.dtype)) op.access = Access::Scalar;
    else continue;
    ops[s.name] = op;
  }
  return ops;
}

// The lines before the seed line, over tiles of row length C; maps_only when the tile's free
// axis is not one whole row of the input (pooling windows, transposed loads).
std::optional<Lines> prologue_of(const Split& sp, std::map<std::string, Operand> ops, int64_t C, bool maps_only) {
  Lines L;
  L.ops = std::move(ops);
  if (sp.body == 0) return L;
  std::optional<Translation> tl = lines::translate_lines(sp.ref, L.ops, C, 0, sp.body, false);
  if (!tl || tl->reduced || (maps_only && has_row_op(*tl))) return std::nullopt;
  L.tl = *tl;
  return L;
}

std::optional<Lines> epilogue_of(const Split& sp, std::map<std::string, Operand> ops, int64_t C, bool maps_only) {
  Lines L;
  L.ops = std::move(ops);
  if (sp.body + 1 >= sp.ref.lines.size()) return L;
  std::optional<Translation> tl = lines::translate_lines(sp.ref, L.ops, C, sp.body + 1, SIZE_MAX, true);
  if (!tl || tl->reduced || (maps_only && has_row_op(*tl))) return std::nullopt;
  L.tl = *tl;
  return L;
}

// `name` viewed with `want` (a reshape when the shapes differ); returns the view's name.
std::string view_of(std::ostringstream& s, const std::string& name, const std::vector<int64_t>& shape,
                    const std::vector<int64_t>& want) {
  if (shape == want) return name;
  std::string v = name + "_v";
  s << "    " << v << " = " << name << ".reshape(" << tuple_text(want) << ")\n";
  return v;
}

// A tile load at `idx`, as float32 into `var`.
void emit_load(std::ostringstream& s, const std::string& var, DType dtype, const std::string& src, const std::string& ind) {
  if (dtype == DType::Float32) {
    s << ind << var << " = nl.load(" << src << ")\n";
  } else {
    s << ind << var << "_h = nl.load(" << src << ")\n";
    s << ind << var << " = nl.copy(" << var << "_h, dtype=nl.float32)\n";
  }
}

void emit_body(std::ostringstream& s, const Translation& tl, const std::string& ind) {
  for (const std::string& l : tl.body) s << ind << l << "\n";
}

// The epilogue's full-tile views (before the loops), keyed by operand name.
std::map<std::string, std::string> epilogue_views(std::ostringstream& s, const Lines& epi, const std::vector<int64_t>& view) {
  std::map<std::string, std::string> v;
  for (const auto& [name, op] : epi.ops)  // (an operand without a parameter is a tile of the kernel's own)
    if (epi.tl.used.count(name) && op.access == Access::Full && !op.arg.empty()) v[name] = view_of(s, op.arg, op.shape, view);
  return v;
}

// Inside the tile loop: the epilogue's full tiles at `idx`, its lines, the store of v.
void emit_epilogue_and_store(std::ostringstream& s, const Lines& epi, const std::map<std::string, std::string>& views,
                             const std::string& out_view, const std::string& idx, const std::string& ind) {
  for (const auto& [name, op] : epi.ops)
    if (views.count(name)) emit_load(s, op.var, op.dtype, views.at(name) + idx, ind);
  emit_body(s, epi.tl, ind);
  s << ind << "nl.store(" << out_view << idx << ", value=v)\n";
}

std::string signature(const std::vector<std::string>& args) {
  std::string s = "@nki.jit\ndef kernel(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  return s + "):\n";
}

std::string plan_of(const std::string& layout, const Lines& pro, const std::string& seed, const Lines& epi) {
  Translation all;
  all.summary = pro.tl.summary;
  all.summary.push_back(seed);
  all.summary.insert(all.summary.end(), epi.tl.summary.begin(), epi.tl.summary.end());
  return lines::plan_sentence(layout, all);
}

}  // namespace nki::train::axis
