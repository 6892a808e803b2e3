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

TEST(MigrateRewrite, ResultThatItsCallReadsGoesToANewTile) {
  // acc = f(..., acc): allocating acc first would make the call read the new, unwritten tile.
  TileFacts f;
  f[{7, "nisa.scalar_tensor_tensor"}] = {TileFact{{128, 64}, DType::Float32, nki::ir::Buffer::Sbuf}};
  RewriteResult r = rewrite_to_current(
      kernel("    acc = nisa.scalar_tensor_tensor(data=t, op0=nl.multiply, operand0=w, op1=nl.add, operand1=acc)\n"), f);
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    scalar_tensor_tensor_out = nl.ndarray(t.shape, dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    nisa.scalar_tensor_tensor(scalar_tensor_tensor_out, data=t, op0=nl.multiply, operand0=w, "
                             "op1=nl.add, operand1=acc)\n"
                             "    acc = scalar_tensor_tensor_out\n"));
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

TEST(MigrateRewrite, CallOnALaterLineOfItsStatementFindsItsTile) {
  // The trace may tag a call of a multi-line statement with the call's own line.
  TileFacts f;
  f[{8, "nisa.reciprocal"}] = {TileFact{{128, 1}, DType::Float32, nki::ir::Buffer::Sbuf}};
  RewriteResult r = rewrite_to_current(kernel("    nl.store(out,\n             value=nisa.reciprocal(x))\n"), f);
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    reciprocal_out = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    nisa.reciprocal(reciprocal_out, x)\n"
                             "    nl.store(out,\n             value=reciprocal_out)\n"));
}

TEST(MigrateRewrite, TransposeOnEitherEngineGoesToPsum) {
  // Traced once on the Vector Engine (SBUF, 32 x 32) and once on the Tensor Engine (PSUM).
  TileFacts f;
  f[{7, "nisa.nc_transpose"}] = {TileFact{{32, 32}, DType::Float32, nki::ir::Buffer::Sbuf},
                                 TileFact{{64, 128}, DType::Float32, nki::ir::Buffer::Psum}};
  RewriteResult r = rewrite_to_current(kernel("    t = nisa.nc_transpose(a)\n"), f);
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    t = nl.ndarray((a.shape[1], a.shape[0]), dtype=nl.float32, buffer=nl.psum)\n"
                             "    nisa.nc_transpose(t, a)\n"));
}

TEST(MigrateRewrite, OtherCallsInBothBuffersAreRefused) {
  TileFacts f;
  f[{7, "nisa.tensor_copy"}] = {TileFact{{32, 32}, DType::Float32, nki::ir::Buffer::Sbuf},
                                TileFact{{32, 32}, DType::Float32, nki::ir::Buffer::Psum}};
  RewriteResult r = rewrite_to_current(kernel("    t = nisa.tensor_copy(a)\n"), f);
  EXPECT_TRUE(refused_rule(r, "isa_dst", 7));
}

TEST(MigrateRewrite, NumpyOperatorBecomesNl) {
  TileFacts f;
  f[{7, "nisa.tensor_reduce"}] = {TileFact{{128, 1}, DType::Float32, nki::ir::Buffer::Sbuf}};
  RewriteResult r = rewrite_to_current(kernel("    m = nisa.tensor_reduce(np.max, data=s, axis=(1,), dtype=nl.float32)\n"), f);
  EXPECT_EQ(r.text, migrated("    m = nl.ndarray((s.shape[0], 1), dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    nisa.tensor_reduce(m, nl.maximum, data=s, axis=(1,))\n"));
}

TEST(MigrateRewrite, ReductionOfATailTileFollowsItsPartitions) {
  // Two executions (a full tile, then a 72-row tail): dim 0 follows the data, the rest is the trace's.
  TileFacts f;
  f[{7, "nisa.tensor_reduce"}] = {TileFact{{128, 1}, DType::Float32, nki::ir::Buffer::Sbuf},
                                  TileFact{{72, 1}, DType::Float32, nki::ir::Buffer::Sbuf}};
  RewriteResult r = rewrite_to_current(kernel("    m = nisa.tensor_reduce(nl.add, data=s[0:n], axis=(1,))\n"), f);
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    m = nl.ndarray((s[0:n].shape[0], 1), dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    nisa.tensor_reduce(m, nl.add, data=s[0:n], axis=(1,))\n"));
}

TEST(MigrateRewrite, ExpressionDataOfATailTileIsBoundFirst) {
  // The traced tiles change rows; the data operand is an expression, so it gets a name first.
  TileFacts f;
  f[{7, "nisa.reciprocal"}] = {TileFact{{128, 1}, DType::Float32, nki::ir::Buffer::Sbuf},
                               TileFact{{72, 1}, DType::Float32, nki::ir::Buffer::Sbuf}};
  RewriteResult r = rewrite_to_current(kernel("    inv = nisa.reciprocal(nl.add(a, b))\n"), f);
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    reciprocal_data = nl.add(a, b)\n"
                             "    inv = nl.ndarray(reciprocal_data.shape, dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    nisa.reciprocal(inv, reciprocal_data)\n"));
}

TEST(MigrateRewrite, TailTilesOfAnotherFreeShapeAreRefused) {
  TileFacts f;
  f[{7, "nisa.tensor_reduce"}] = {TileFact{{128, 4}, DType::Float32, nki::ir::Buffer::Sbuf},
                                  TileFact{{128, 2}, DType::Float32, nki::ir::Buffer::Sbuf}};
  RewriteResult r = rewrite_to_current(kernel("    m = nisa.tensor_reduce(nl.add, data=s, axis=(2,))\n"), f);
  EXPECT_TRUE(refused_rule(r, "isa_dst", 7));
}

TEST(MigrateRewrite, HoistedOperandNamesTheShape) {
  // bn_aggr(bn_stats(x)): the inner call goes to a temporary, whose partitions the outer follows.
  TileFacts f;
  f[{7, "nisa.bn_stats"}] = {TileFact{{128, 6}, DType::Float32, nki::ir::Buffer::Sbuf},
                             TileFact{{16, 6}, DType::Float32, nki::ir::Buffer::Sbuf}};
  f[{7, "nisa.bn_aggr"}] = {TileFact{{128, 2}, DType::Float32, nki::ir::Buffer::Sbuf},
                            TileFact{{16, 2}, DType::Float32, nki::ir::Buffer::Sbuf}};
  RewriteResult r = rewrite_to_current(kernel("    mv = nisa.bn_aggr(nisa.bn_stats(xs, dtype=nl.float32), dtype=nl.float32)\n"), f);
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    bn_stats_out = nl.ndarray((xs.shape[0], 6), dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    nisa.bn_stats(bn_stats_out, xs)\n"
                             "    mv = nl.ndarray((bn_stats_out.shape[0], 2), dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    nisa.bn_aggr(mv, bn_stats_out)\n"));
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

TEST(MigrateRewrite, RedefinedArangeNameTakesTheDefinitionAboveItsUse) {
  std::string body =
      "    i_c = nl.arange(A)[:, None]\n"
      "    i_f = nl.arange(F)[None, :]\n"
      "    a = nl.load(x[i_c, i_f])\n"
      "    for t in nl.affine_range(2):\n"
      "        i_c = nl.arange(B)[:, None]\n"
      "        b = nl.load(x[i_c, i_f])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    a = nl.load(x[0:A, 0:F])\n"
                             "    for t in nl.affine_range(2):\n"
                             "        b = nl.load(x[0:B, 0:F])\n"));
}

TEST(MigrateRewrite, RedefinitionThatALoopBringsBackIsRefused) {
  // From the second iteration on, line 10 reads the i_c of line 11.
  std::string body =
      "    i_c = nl.arange(A)[:, None]\n"
      "    i_f = nl.arange(F)[None, :]\n"
      "    for t in nl.affine_range(2):\n"
      "        a = nl.load(x[i_c, i_f])\n"
      "        i_c = nl.arange(B)[:, None]\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(refused_rule(r, "arange_slices", 10));
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
                             "        nl.store(out[t * P:min(rows, t * P + P), 0:F], value=nl.exp(a[0:min(P, rows - (t * P))]))\n"));
}

TEST(MigrateRewrite, MaskedComputeCutsItsWholeTileOperands) {
  // The mask kept rows [0, rows - t * P) of every operand; a broadcast tile has all P of them.
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_f = nl.arange(F)[None, :]\n"
      "    s = nl.load(scale).broadcast_to((P, F))\n"
      "    eps = 1e-6\n"
      "    for t in nl.affine_range(2):\n"
      "        valid = t * P + i_p < rows\n"
      "        a = nl.load(x[t * P + i_p, i_f], mask=valid)\n"
      "        y = nl.add(nl.multiply(a, s, mask=valid), eps, mask=valid)\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    s = nl.load(scale).broadcast_to((P, F))\n"
                             "    eps = 1e-6\n"
                             "    for t in nl.affine_range(2):\n"
                             "        a = nl.load(x[t * P:min(rows, t * P + P), 0:F])\n"
                             "        y = nl.add(nl.multiply(a[0:min(P, rows - (t * P))], s[0:min(P, rows - (t * P))]), eps)\n"));
}

TEST(MigrateRewrite, TensorSubscriptAssignedToANameIsAValueNotAnAlias) {
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_f = nl.arange(F)[None, :]\n"
      "    t = nl.load(x)\n"
      "    v = t[i_p, 2 * i_f]\n"
      "    y = nl.exp(v)\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    t = nl.load(x)\n"
                             "    v = t[0:P, 0:0 + 2 * (F - 1) + 1:2]\n"
                             "    y = nl.exp(v)\n"));
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

TEST(MigrateRewrite, OneDimensionalTensorReadAsAColumnBecomesAccessPattern) {
  // x[t * P + i_p] with i_p = [P, 1]: a [P, 1] tile out of a 1-D tensor, which no slice gives.
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    a = nl.load(x[t * P + i_p])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    a = nl.load(x.ap([[x.strides[0], P], [0, 1]], offset=t * P * x.strides[0]))\n"));
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

TEST(MigrateRewrite, MultipleOfCompoundIndexIsDistributed) {
  // (i_f + 1) * 2 = 2 * i_f + 2: a strided slice starting at 2.
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_f = nl.arange(F)[None, :]\n"
      "    a = nl.load(x[i_p, (i_f + 1) * 2])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    a = nl.load(x[0:P, 2:2 + 2 * (F - 1) + 1:2])\n"));
}

TEST(MigrateRewrite, DistributedFactorKeepsItsOperandsGrouped) {
  // k * (a // 2 + i_f): the base term is k * (a // 2), not (k * a) // 2.
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_f = nl.arange(F)[None, :]\n"
      "    a = nl.load(x[i_p, k * (n // 2 + i_f)])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    a = nl.load(x[0:P, k * (n // 2):k * (n // 2) + k * (F - 1) + 1:k])\n"));
}

TEST(MigrateRewrite, FlattenedIndexBecomesAccessPattern) {
  // y[c, h * Wp + w] over a [C, H, W] broadcast: steps Wp and 1 along y's free axis.
  std::string body =
      "    i_c = nl.arange(C)[:, None, None]\n"
      "    i_h = nl.arange(H)[None, :, None]\n"
      "    i_w = nl.arange(W)[None, None, :]\n"
      "    y = nl.load(x)\n"
      "    nl.store(out, value=y[i_c, i_h * Wp + i_w])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    y = nl.load(x)\n"
                             "    nl.store(out, value=y.ap([[y.strides[0], C], [Wp * y.strides[1], H], [y.strides[1], W]]))\n"));
}

TEST(MigrateRewrite, PaddedInteriorWriteBecomesAccessPatternTarget) {
  // (i_h + 1) * Wp + 1 + i_w: distributed, then offset Wp + 1 into the padded row-major image.
  std::string body =
      "    i_c = nl.arange(C)[:, None, None]\n"
      "    i_h = nl.arange(H)[None, :, None]\n"
      "    i_w = nl.arange(W)[None, None, :]\n"
      "    xp = nl.zeros((C, (H + 2) * Wp + 2), dtype=nl.float32, buffer=nl.sbuf)\n"
      "    xp[i_c, (i_h + 1) * Wp + 1 + i_w] = nl.load(x)\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    xp = nl.zeros((C, (H + 2) * Wp + 2), dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    xp.ap([[xp.strides[0], C], [Wp * xp.strides[1], H], [xp.strides[1], W]], "
                             "offset=(Wp + 1) * xp.strides[1])[...] = nl.load(x)\n"));
}

TEST(MigrateRewrite, OverlappingWindowOnHbmBecomesAccessPattern) {
  // x[b, kh * H + i_k + i_h * H + i_w]: i_k and i_w both step 1 (an im2col window).
  std::string body =
      "    i_k = nl.arange(K)[:, None, None]\n"
      "    i_h = nl.arange(R)[None, :, None]\n"
      "    i_w = nl.arange(R)[None, None, :]\n"
      "    win = nl.load(x[b, kh * H + i_k + i_h * H + i_w])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    win = nl.load(x.ap([[x.strides[1], K], [H * x.strides[1], R], [x.strides[1], R]], "
                             "offset=b * x.strides[0] + kh * H * x.strides[1]))\n"));
}

TEST(MigrateRewrite, AccessPatternOverAReshapedParameter) {
  // A reshape of a whole tensor is the same storage, row-major: still offset 0.
  std::string body =
      "    i_k = nl.arange(K)[:, None, None]\n"
      "    i_h = nl.arange(R)[None, :, None]\n"
      "    i_w = nl.arange(R)[None, None, :]\n"
      "    x2 = x.reshape((B, H * H))\n"
      "    win = nl.load(x2[b, i_k + i_h * H + i_w])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    x2 = x.reshape((B, H * H))\n"
                             "    win = nl.load(x2.ap([[x2.strides[1], K], [H * x2.strides[1], R], [x2.strides[1], R]], "
                             "offset=b * x2.strides[0]))\n"));
}

TEST(MigrateRewrite, GatheredRowsBecomeAVectorOffsetAccess) {
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_f = nl.arange(D)[None, :]\n"
      "    ids = nl.load(idx)\n"
      "    rows = nl.load(x[ids[i_p, 0], i_f])\n"
      "    more = nl.load(x[ids[i_p, l], 64 + i_f])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    ids = nl.load(idx)\n"
                             "    rows = nl.load(x.ap([[x.strides[0], P], [x.strides[1], D]], "
                             "vector_offset=ids[0:P, 0:1], indirect_dim=0))\n"
                             "    more = nl.load(x.ap([[x.strides[0], P], [x.strides[1], D]], offset=64 * x.strides[1], "
                             "vector_offset=ids[0:P, l:l + 1], indirect_dim=0))\n"));
}

TEST(MigrateRewrite, GatherFromAReshapeIsRefused) {
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_0 = nl.arange(1)[None, :]\n"
      "    flat = x.reshape((N, 1))\n"
      "    ids = nl.load(idx)\n"
      "    picked = nl.load(flat[ids[i_p, 0], i_0])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(refused_rule(r, "arange_slices", 11));
}

TEST(MigrateRewrite, CallResultWithAFlattenedIndexGetsANameFirst) {
  std::string body =
      "    i_c = nl.arange(C)[:, None, None]\n"
      "    i_h = nl.arange(H)[None, :, None]\n"
      "    i_w = nl.arange(W)[None, None, :]\n"
      "    y = nl.exp(nl.load(x)[i_c, i_h * W + i_w])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    load_tile = nl.load(x)\n"
                             "    y = nl.exp(load_tile.ap([[load_tile.strides[0], C], [W * load_tile.strides[1], H], "
                             "[load_tile.strides[1], W]]))\n"));
}

TEST(MigrateRewrite, CallResultEvaluatedAfterAnotherCallIsNotHoisted) {
  // f(g(), nl.load(x)[...]): binding the load first would run it before g.
  std::string body =
      "    i_c = nl.arange(C)[:, None, None]\n"
      "    i_h = nl.arange(H)[None, :, None]\n"
      "    i_w = nl.arange(W)[None, None, :]\n"
      "    y = nl.add(nl.exp(a), nl.load(x)[i_c, i_h * W + i_w])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(refused_rule(r, "arange_slices", 10));
}

TEST(MigrateRewrite, AccessPatternOverALeadingViewOfATile) {
  // m = xp[:, 0:n]: offset 0 and xp's strides, so the pattern reads the same elements.
  std::string body =
      "    i_c = nl.arange(C)[:, None, None]\n"
      "    i_h = nl.arange(H)[None, :, None]\n"
      "    i_w = nl.arange(W)[None, None, :]\n"
      "    xp = nl.load(x)\n"
      "    m = xp[:, 0:H * Wp]\n"
      "    y = nl.exp(m[i_c, i_h * Wp + i_w])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    xp = nl.load(x)\n"
                             "    m = xp[:, 0:H * Wp]\n"
                             "    y = nl.exp(m.ap([[m.strides[0], C], [Wp * m.strides[1], H], [m.strides[1], W]]))\n"));
}

TEST(MigrateRewrite, AccessPatternOverAPossibleViewIsRefused) {
  // v is a slice of x: .ap() would address x's storage from its start, not v's.
  std::string body =
      "    i_c = nl.arange(C)[:, None, None]\n"
      "    i_h = nl.arange(H)[None, :, None]\n"
      "    i_w = nl.arange(W)[None, None, :]\n"
      "    v = x[1]\n"
      "    a = nl.load(v[i_c, i_h * W + i_w])\n";
  RewriteResult r = rewrite_to_current(kernel(body), {});
  EXPECT_TRUE(refused_rule(r, "arange_slices", 11));
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

TEST(MigrateRewrite, AffineSelectOfAPsumTileCopiesItToSbuf) {
  // 0.6 affine_select takes on_true_tile in SBUF only; the trace saw it read PSUM.
  TileFacts f;
  TileFact fact{{128, 64}, DType::Float32, nki::ir::Buffer::Sbuf};
  fact.reads_psum = true;
  f[{9, "nisa.affine_select"}] = {fact};
  std::string body =
      "    i_p = nl.arange(P)[:, None]\n"
      "    i_s = nl.arange(S)[None, :]\n"
      "    s = nisa.affine_select(pred=(i_p - i_s >= 0), on_true_tile=ps[i_p, i_s], on_false_value=-9984.0)\n";
  RewriteResult r = rewrite_to_current(kernel(body), f);
  EXPECT_TRUE(r.complete()) << (r.refused.empty() ? "" : r.refused[0].message);
  EXPECT_EQ(r.text, migrated("    on_true_sbuf = nl.ndarray(ps[0:P, 0:S].shape, dtype=ps[0:P, 0:S].dtype, buffer=nl.sbuf)\n"
                             "    nisa.tensor_copy(on_true_sbuf, ps[0:P, 0:S])\n"
                             "    s = nl.ndarray(ps[0:P, 0:S].shape, dtype=nl.float32, buffer=nl.sbuf)\n"
                             "    nisa.affine_select(s, [[-1, S]], 1, on_true_sbuf, -9984.0, cmp_op=nl.greater_equal, "
                             "offset=0)\n"));
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
