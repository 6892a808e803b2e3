// Internal to the fused_axis generators (fused_axis_templates.h): the reference split around its
// seed line, the prologue / epilogue translation through the row table (fused_lines.h), the
// kernel-text helpers, and the forms each generator file adds.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "task/task_spec.h"
#include "train/fused_lines.h"
#include "train/kernel_text.h"
#include "train/templates.h"

namespace nki::train::axis {

using lines::Access;
using lines::Operand;
using lines::Reference;
using lines::Translation;

extern const char* const kHeader;  // the kernel module's imports

// Shared with the other generators (kernel_text.h).
using train::divisor_at_most;
using train::is_float;
using train::nl_dtype;
using train::product;
using train::tuple_text;
// Rows per tile: the largest divisor of `rows` up to 128, or nothing when that leaves tiles of
// a handful of partitions (a prime row count; no masked variant is written here).
std::optional<int64_t> tile_rows(int64_t rows);
std::string num(int64_t v);
// `i * P:(i + 1) * P` for loop variable i.
std::string span(const std::string& i, int64_t p);
std::string regex_quoted(const std::string& s);
// 1 / sqrt(d) written out to full double precision.
std::string fmt_scale(int64_t d);
// Whether a kernel parameter is named like one of a generator's loop indices or tiles.
bool clashes(const std::vector<std::string>& args, std::initializer_list<const char*> names);
bool has_row_op(const Translation& t);

// forward() around the seed line: prologue lines [0, body) rewrite the first input, the seed
// line `y = ...` is lines[body], the epilogue lines after it rewrite y.
struct Split {
  Reference ref;
  size_t body = 0;
  std::string expr;  // right-hand side of the seed line
};
std::optional<Split> split_reference(const TaskSpec& t);

// Translated lines and the operands they may read.
struct Lines {
  Translation tl;
  std::map<std::string, Operand> ops;
};

std::map<std::string, Operand> prologue_ops(const TaskSpec& t, const std::vector<std::string>& args, int64_t C, bool rows_ok);
std::map<std::string, Operand> epilogue_ops(const TaskSpec& t, const std::vector<std::string>& args, size_t seed_inputs, int64_t C,
                                            bool rows_ok);
std::optional<Lines> prologue_of(const Split& sp, std::map<std::string, Operand> ops, int64_t C, bool maps_only);
std::optional<Lines> epilogue_of(const Split& sp, std::map<std::string, Operand> ops, int64_t C, bool maps_only);
std::string view_of(std::ostringstream& s, const std::string& name, const std::vector<int64_t>& shape,
                    const std::vector<int64_t>& want);
void emit_load(std::ostringstream& s, const std::string& var, DType dtype, const std::string& src, const std::string& ind);
void emit_body(std::ostringstream& s, const Translation& tl, const std::string& ind);
std::map<std::string, std::string> epilogue_views(std::ostringstream& s, const Lines& epi, const std::vector<int64_t>& view);
void emit_epilogue_and_store(std::ostringstream& s, const Lines& epi, const std::map<std::string, std::string>& views,
                             const std::string& out_view, const std::string& idx, const std::string& ind);
std::string signature(const std::vector<std::string>& args);
std::string plan_of(const std::string& layout, const Lines& pro, const std::string& seed, const Lines& epi);

// ---- the forms (fused_axis_rows.cpp) -----------------------------------------------------------

struct AxisOp {
  std::string op;  // sum mean amax amin prod logsumexp std var norm softmax log_softmax rms
  int64_t dim = 0;
  bool keepdim = false;
  bool unbiased = true;
  std::string eps;
};
std::optional<AxisOp> parse_axis_line(const std::string& e, const std::string& x);
void add_axis_kernel(const TaskSpec& t, const std::vector<std::string>& args, const Split& sp, const AxisOp& op,
                     std::vector<TemplateKernel>& out);

struct PoolOp {
  std::string op;  // max avg lp2
  bool two_d = true;
  int64_t kh = 1, kw = 1;
  int64_t sh = 0, sw = 0;  // strides (0: the window)
  int64_t dil = 1;         // dilation (both axes)
  int64_t pw = 0;          // padding along W
  int64_t adaptive = 0;    // output extent of an adaptive pool (per axis)
  bool mean_hw = false;    // x.mean(dim=(2, 3))
};
std::optional<PoolOp> parse_pool_line(const std::string& e, const std::string& x);
void add_pool_kernel(const TaskSpec& t, const std::vector<std::string>& args, const Split& sp, PoolOp p,
                     std::vector<TemplateKernel>& out);

void add_chunk_kernel(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out);

// ---- fused_axis_products.cpp -------------------------------------------------------------------

void add_matvec_kernels(const TaskSpec& t, const std::vector<std::string>& args, const Split& sp, std::vector<TemplateKernel>& out);
struct MatmulForm {
  bool ta = false, tb = false, batch = false, addmm = false;
  std::string beta, alpha;
};
std::optional<MatmulForm> parse_matmul_line(const std::string& e, const std::vector<std::string>& a);
void add_matmul_kernel(const TaskSpec& t, const std::vector<std::string>& args, const Split& sp, const MatmulForm& f,
                       std::vector<TemplateKernel>& out);
void add_chain_kernel(const TaskSpec& t, const std::vector<std::string>& args, const Split& sp, std::vector<TemplateKernel>& out);
void add_attention_kernel(const TaskSpec& t, const std::vector<std::string>& args, const Split& sp, std::vector<TemplateKernel>& out);

// ---- fused_axis_blocks.cpp ---------------------------------------------------------------------

void add_moe_kernel(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out);
void add_squeeze_excitation_kernel(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out);
void add_attention_pool_kernel(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out);
void add_mlp_kernel(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out);

}  // namespace nki::train::axis
