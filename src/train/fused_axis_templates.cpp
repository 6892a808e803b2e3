#include "train/fused_axis_templates.h"

#include <algorithm>
#include <set>

#include "train/fused_axis_common.h"

namespace nki::train {

using namespace axis;

void add_fused_axis_templates(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out) {
  if (t.outputs.size() != 1 || t.inputs.empty() || args.size() != t.kernel_args().size()) return;
  // the kernels' own names (loop indices, tiles) must not shadow a parameter
  static const std::set<std::string> taken = {"out", "i", "ai", "bo", "bi", "acc", "rhs", "lhs_t",
                                              "col", "col_v", "v_col", "vk", "ak", "b_b", "b_row", "b_t", "mv_row", "mv_b",
                                              "lhs_h", "rhs_h", "ab_t", "ab_s", "b_kj", "c_jn", "wg_t", "ex_t",
                                              "x_t", "lg_ps", "lg", "ge", "h_ps", "k_t", "q_t",
                                              "s_ps", "sc", "bias_t", "pe", "p_sum", "o_ps", "p_t", "v_blk",
                                              "w1_h", "w1_t", "w2_h", "w2_t", "b1_col", "b2_col", "pooled", "h1", "gate",
                                              "vt", "vt_h", "w_col", "vb_col", "u_ps", "ht_h", "u_t", "sc_ps", "a_row",
                                              "y_ps", "a_col", "h_blk", "w1t", "w1t_h", "w3t", "w3t_h", "w2t", "w2t_h",
                                              "b2_b", "b2_b_r", "lnw_b", "lnw_b_r", "lnb_b", "lnb_b_r", "xt", "xt_h", "h1",
                                              "h1_ps", "h1_b", "h3", "h3_ps", "h3_b", "w_rows", "x_rows", "z", "z_mu", "z_d",
                                              "z_var"};
  for (const std::string& a : args)
    if (taken.count(a) || a.rfind("red_", 0) == 0 || a.rfind("px_", 0) == 0 || a.rfind("t_", 0) == 0) return;
  add_chunk_kernel(t, args, out);
  if (!out.empty()) return;
  std::optional<Split> sp = split_reference(t);
  if (!sp) {
    // the forms here with nn.Linear modules
    add_moe_kernel(t, args, out);
    if (out.empty()) add_squeeze_excitation_kernel(t, args, out);
    if (out.empty()) add_attention_pool_kernel(t, args, out);
    if (out.empty()) add_mlp_kernel(t, args, out);
    return;
  }
  if (sp->ref.args[0] != t.inputs[0].name) return;
  const std::string& x = sp->ref.args[0];
  // `v` is the running value of every kernel here; the matrix-vector kernels read a parameter
  // named v only before their loop (matvec's and vecmat's vector), attention through a view
  // made before it, the others not at all.
  if (std::find(args.begin(), args.end(), "v") != args.end()) {
    add_matvec_kernels(t, args, *sp, out);
    if (out.empty()) add_attention_kernel(t, args, *sp, out);
    return;
  }
  if (std::optional<AxisOp> a = parse_axis_line(sp->expr, x)) {
    add_axis_kernel(t, args, *sp, *a, out);
  } else if (std::optional<PoolOp> p = parse_pool_line(sp->expr, x)) {
    add_pool_kernel(t, args, *sp, *p, out);
  } else {
    add_matvec_kernels(t, args, *sp, out);
    if (out.empty())
      if (std::optional<MatmulForm> m = parse_matmul_line(sp->expr, sp->ref.args)) add_matmul_kernel(t, args, *sp, *m, out);
    if (out.empty()) add_chain_kernel(t, args, *sp, out);
    if (out.empty()) add_attention_kernel(t, args, *sp, out);
  }
}

}  // namespace nki::train
