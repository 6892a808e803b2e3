// Each rewrite rule of src/migrate: a legacy snippet and the exact current-dialect text, and the
// constructs that must be refused (reported with their line, never dropped).
#include <gtest/gtest.h>

#include "migrate/rewrite.h"

using nki::DType;
using nki::migrate::RewriteResult;
using nki::migrate::TileFact;
using nki::migrate::TileFacts;
using nki::migrate::rewrite_to_current;

namespace {

const char* kImports =
    "import neuronxcc.nki as nki\n"
    "import neuronxcc.nki.language as nl\n"
    "import neuronxcc.nki.isa as nisa\n";
const char* kNewImports =
    "import nki\n"
    "import nki.language as nl\n"
    "import nki.isa as nisa\n";

std::string kernel(const std::string& body) {
  return std::string(kImports) + "\n@nki.jit\ndef k(x):\n" + body;
}
std::string migrated(const std::string& body) {
  return std::string(kNewImports) + "\n@nki.jit\ndef k(x):\n" + body;
}

bool refused_rule(const RewriteResult& r, const std::string& rule, int line) {
  for (auto& f : r.refused)
    if (f.rule == rule && f.line == line) return true;
  return false;
}

}  // namespace

TEST(MigrateRewrite, ImportsKeepEverythingElse) {
  std::string src = kernel("    # a comment   kept\n    out = nl.ndarray((4, 4), dtype=x.dtype, buffer=nl.shared_hbm)\n"
                           "    return out\n");
  RewriteResult r = rewrite_to_current(src, {});
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.text, migrated("    # a comment   kept\n    out = nl.ndarray((4, 4), dtype=x.dtype, buffer=nl.shared_hbm)\n"
                             "    return out\n"));
}

TEST(MigrateRewrite, FromImportForms) {
  RewriteResult r = rewrite_to_current("from neuronxcc import nki\nfrom neuronxcc.nki import language as nl\n", {});
  EXPECT_EQ(r.text, "import nki\nfrom nki import language as nl\n");
}

TEST(MigrateRewrite, CompilerModuleIsRefused) {
  RewriteResult r = rewrite_to_current("import neuronxcc.nki.compiler as ncc\n", {});
  EXPECT_TRUE(refused_rule(r, "imports", 1));
  EXPECT_EQ(r.text, "import neuronxcc.nki.compiler as ncc\n");
}

TEST(MigrateRewrite, FreshIsaResultIsAllocated) {
  // line 7 col 5 is the statement `y = nisa.activation(...)`.
  TileFacts f;
  f[{8, "nisa.activation"}] = {TileFact{{128, 512}, DType::Float32, nki::ir::Buffer::Sbuf}};
  RewriteResult r = rewrite_to_current(kernel("    t = nl.load(x)\n    y = nisa.activation(op=nl.exp, data=t, dtype=nl.bfloat16)\n"), f);
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.text, migrated("    t = nl.load(x)\n"
                             "    y = nl.ndarray(t.shape, dtype=nl.bfloat16, buffer=nl.sbuf)\n"
                             "    nisa.activation(y, op=nl.exp, data=t)\n"));
}

TEST(MigrateRewrite, DtypeFromTraceWhenNotGiven) {
  TileFacts f;
  f[{7, "nisa.reciprocal"}] = {TileFact{{128, 1}, DType::Float16, nki::ir::Buffer::Sbuf}};
  RewriteResult r = rewrite_to_current(kernel("    y = nisa.reciprocal(x)\n"), f);
  EXPECT_EQ(r.text, migrated("    y = nl.ndarray(x.shape, dtype=nl.float16, buffer=nl.sbuf)\n    nisa.reciprocal(y, x)\n"));
}

TEST(MigrateRewrite, MatmulAccumulateAndOverwrite) {
  RewriteResult r = rewrite_to_current(kernel("    ps += nisa.nc_matmul(a, b)\n    ps[0:4, :] = nisa.nc_matmul(a, b)\n"), {});
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.text, migrated("    nisa.nc_matmul(ps, a, b, accumulate=True)\n"
                             "    nisa.nc_matmul(ps[0:4, :], a, b, accumulate=False)\n"));
}

TEST(MigrateRewrite, NestedIsaCallIsHoisted) {
  TileFacts f;
  f[{7, "nisa.nc_transpose"}] = {TileFact{{64, 128}, DType::Float32, nki::ir::Buffer::Psum}};
  RewriteResult r = rewrite_to_current(kernel("    t = nl.copy(nisa.nc_transpose(a), dtype=x.dtype)  # keep\n"), f);
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.text, migrated("    nc_transpose_out = nl.ndarray((a.shape[1], a.shape[0]), dtype=nl.float32, buffer=nl.psum)\n"
                             "    nisa.nc_transpose(nc_transpose_out, a)\n"
                             "    t = nl.copy(nc_transpose_out, dtype=x.dtype)  # keep\n"));
}

TEST(MigrateRewrite, NumpyOperatorBecomesNl) {
  TileFacts f;
  f[{7, "nisa.tensor_reduce"}] = {TileFact{{128, 1}, DType::Float32, nki::ir::Buffer::Sbuf}};
  RewriteResult r = rewrite_to_current(kernel("    m = nisa.tensor_reduce(np.max, data=s, axis=(1,), dtype=nl.float32)\n"), f);
  EXPECT_EQ(r.text, migrated("    m = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    nisa.tensor_reduce(m, nl.maximum, data=s, axis=(1,))\n"));
}

TEST(MigrateRewrite, AllocationWithoutTraceIsRefused) {
  RewriteResult r = rewrite_to_current(kernel("    y = nisa.reciprocal(x)\n"), {});
  EXPECT_TRUE(refused_rule(r, "isa_dst", 7));
  EXPECT_EQ(r.text, migrated("    y = nisa.reciprocal(x)\n"));
}

TEST(MigrateRewrite, ArangeIndicesBecomeSlices) {
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_f = nl.arange(F)[None, :]\n"
      "    for i in nl.affine_range(4):\n"
      "        t = nl.load(x[i * P + i_p, i_f])\n"
      "        nl.store(out[i * P + i_p, 2 * F + i_f], value=t)\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.text, migrated("    for i in nl.affine_range(4):\n"
                             "        t = nl.load(x[i * P:i * P + P, 0:F])\n"
                             "        nl.store(out[i * P:i * P + P, 2 * F:2 * F + F], value=t)\n"));
}

TEST(MigrateRewrite, MgridNames) {
  RewriteResult r = rewrite_to_current(kernel("    i_p, i_f = nl.mgrid[0:128, 0:64]\n    t = nl.load(x[i_p, i_f + 64])\n"), {});
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.text, migrated("    t = nl.load(x[0:128, 64:64 + 64])\n"));
}

TEST(MigrateRewrite, StaticMaskBecomesSliceBound) {
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_f = nl.arange(F)[None, :]\n"
      "    for t in nl.affine_range(2):\n"
      "        valid = t * P + i_p < rows\n"
      "        a = nl.load(x[t * P + i_p, i_f], mask=valid)\n"
      "        nl.store(out[t * P + i_p, i_f], value=nl.exp(a, mask=valid), mask=valid)\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    for t in nl.affine_range(2):\n"
                             "        a = nl.load(x[t * P:min(rows, t * P + P), 0:F])\n"
                             "        nl.store(out[t * P:min(rows, t * P + P), 0:F], value=nl.exp(a))\n"));
}

TEST(MigrateRewrite, IndexAliasIsSubstituted) {
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_f = nl.arange(F)[None, :]\n"
      "    r = 3 * P + i_p\n"
      "    a = nl.load(x[r, i_f])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.text, migrated("    a = nl.load(x[3 * P:3 * P + P, 0:F])\n"));
}

TEST(MigrateRewrite, TransposedAccessBecomesPermutedView) {
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_f = nl.arange(F)[None, :]\n"
      "    a = nl.load(x[b, i_f, i_p])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.text, migrated("    a = nl.load(x[b, 0:F, 0:P].permute((1, 0)))\n"));
}

TEST(MigrateRewrite, BroadcastLayoutIsRefused) {
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    a = nl.load(x[i_p, 3, i_p])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(refused_rule(r, "arange_slices", 8));
}

TEST(MigrateRewrite, InlineArangeInIota) {
  TileFacts f;
  f[{7, "nisa.iota"}] = {TileFact{{32, 1}, DType::Float32, nki::ir::Buffer::Sbuf}};
  RewriteResult r = rewrite_to_current(kernel("    g = nisa.iota(nl.arange(C)[:, None], dtype=nl.float32)\n"), f);
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    g = nl.ndarray((32, 1), dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    nisa.iota(g, [[0, 1]], offset=0, channel_multiplier=1)\n"));
}

TEST(MigrateRewrite, WindowIndexIsRefused) {
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_k = nl.arange(3)[None, :]\n"
      "    i_f = nl.arange(F)[None, :]\n"
      "    a = nl.load(x[i_p, i_f + i_k])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(refused_rule(r, "arange_slices", 10));
}

TEST(MigrateRewrite, IotaOfAranges) {
  TileFacts f;
  f[{8, "nisa.iota"}] = {TileFact{{1, 16}, DType::Float32, nki::ir::Buffer::Sbuf}};
  std::string body = "    i_f = nl.arange(V)[None, :]\n    c = nisa.iota(2 + i_f, dtype=nl.float32)\n";
  RewriteResult r = rewrite_to_current(kernel(body), f);
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    c = nl.ndarray((1, 16), dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    nisa.iota(c, [[1, V]], offset=2, channel_multiplier=0)\n"));
}

TEST(MigrateRewrite, AffineSelectPredicateBecomesPattern) {
  TileFacts f;
  f[{9, "nisa.affine_select"}] = {TileFact{{128, 64}, DType::Float32, nki::ir::Buffer::Sbuf}};
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_s = nl.arange(S)[None, :]\n"
      "    s = nisa.affine_select(pred=(r * P + i_p - i_s >= 0), on_true_tile=t[i_p, i_s], on_false_value=-9984.0)\n";
  RewriteResult r = rewrite_to_current(kernel(body), f);
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    s = nl.ndarray(t[0:P, 0:S].shape, dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    nisa.affine_select(s, [[-1, S]], 1, t[0:P, 0:S], -9984.0, cmp_op=nl.greater_equal, "
                             "offset=r * P)\n"));
}

TEST(MigrateRewrite, AffineSelectWithTwoFreeIndicesIsRefused) {
  std::string body =
      "    i_a = nl.arange(A)[None, :]\n"
      "    i_b = nl.arange(B)[None, :]\n"
      "    s = nisa.affine_select(pred=(i_a - i_b >= 0), on_true_tile=t, on_false_value=0.0)\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_FALSE(r.complete());
  EXPECT_TRUE(refused_rule(r, "isa_dst", 9));
}

TEST(MigrateRewrite, NlKeywordsAndParDim) {
  RewriteResult r = rewrite_to_current(
      kernel("    t = nl.ndarray((nl.par_dim(128), 4), dtype=x.dtype, buffer='sbuf')\n    u = nl.copy(src=t)\n"), {});
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.text, migrated("    t = nl.ndarray((128, 4), dtype=x.dtype, buffer=nl.sbuf)\n    u = nl.copy(x=t)\n"));
}

TEST(MigrateRewrite, SyntaxErrorIsRefusedWhole) {
  RewriteResult r = rewrite_to_current("def k(:\n", {});
  EXPECT_TRUE(refused_rule(r, "syntax", 1));
  EXPECT_EQ(r.text, "def k(:\n");
}
