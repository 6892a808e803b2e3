// Live ranges of on-chip tensors (check/liveness.h) and the capacity check built on them
// (check/capacity.h), on kernels traced from Python source.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "check/capacity.h"
#include "check/liveness.h"
#include "nki/tracer.h"

using namespace nki;
using namespace nki::front;
using namespace nki::check;

namespace {

const char* kHeader =
    "import neuronxcc.nki as nki\n"
    "import neuronxcc.nki.language as nl\n"
    "import neuronxcc.nki.isa as nisa\n";

TraceResult trace(const std::string& body, const std::vector<std::string>& args,
                  Target target = Target::Trn2) {
  auto file = std::make_shared<SourceFile>("k.py", std::string(kHeader) + body);
  TraceOptions opts;
  opts.target = target;
  for (const std::string& a : args) {
    std::string err;
    auto spec = parse_arg_spec(a, &err);
    EXPECT_TRUE(spec.has_value()) << err;
    opts.args.push_back(*spec);
  }
  return trace_kernel(file, opts);
}

std::shared_ptr<ir::Kernel> traced(const std::string& body, const std::vector<std::string>& args) {
  TraceResult r = trace(body, args);
  for (const Diagnostic& d : r.diagnostics) ADD_FAILURE() << d.code << ": " << d.message;
  return r.kernel;
}

LiveRange range_of(const ir::Kernel& k, const Liveness& lv, const std::string& name) {
  for (const LiveRange& r : lv.ranges)
    if (k.tensors[static_cast<size_t>(r.tensor)].name == name) return r;
  ADD_FAILURE() << "no live range for '" << name << "'";
  return {};
}

const Diagnostic* error_of(const TraceResult& r) {
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) return &d;
  return nullptr;
}

const Diagnostic* warning_of(const TraceResult& r, const std::string& code) {
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Warning && d.code == code) return &d;
  return nullptr;
}

}  // namespace

// Instruction positions: 0 load w, 1 the zero fill of acc, then the loop body (2 load t,
// 3 multiply, 4 add into acc), 5 the store of acc.
TEST(Liveness, LoopCarriedAndPerIterationTensors) {
  auto k = traced(
      "@nki.jit\n"
      "def f(x):\n"
      "    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)\n"
      "    w = nl.load(x[0:128, :])\n"
      "    acc = nl.zeros((128, 64), dtype=nl.float32)\n"
      "    for i in nl.sequential_range(4):\n"
      "        t = nl.load(x[i * 128:(i + 1) * 128, :])\n"
      "        p = nl.multiply(t, w)\n"
      "        acc[...] = nl.add(acc, p)\n"
      "    nl.store(out, value=acc)\n"
      "    return out\n",
      {"512x64:float32"});
  ASSERT_TRUE(k);
  const Liveness lv = on_chip_liveness(*k);
  ASSERT_EQ(lv.positions, 6);
  const LiveRange w = range_of(*k, lv, "w"), acc = range_of(*k, lv, "acc"),
                  t = range_of(*k, lv, "t"), p = range_of(*k, lv, "p");
  // w is loaded before the loop and read in it: live through the whole loop (last position 4),
  // although its last read in program order is the multiply at 3.
  EXPECT_EQ(w.first, 0);
  EXPECT_EQ(w.last, 4);
  // acc is filled before the loop and read after it.
  EXPECT_EQ(acc.first, 1);
  EXPECT_EQ(acc.last, 5);
  // t and p exist within one iteration, from their write to their last read.
  EXPECT_EQ(t.first, 2);
  EXPECT_EQ(t.last, 3);
  EXPECT_EQ(p.first, 3);
  EXPECT_EQ(p.last, 4);
}

// A PSUM tile created in the n body and accumulated in the k loop without a fill: it crosses
// the k loop's boundary (read after it), so it is live through the whole k loop, but it is not
// carried across n (every n iteration creates a new tile). Positions in the n body: k body
// (0 load a_t, 1 load b_t, 2 matmul +=), 3 copy out of PSUM, 4 store.
TEST(Liveness, PsumAccumulatorSpansContractionLoop) {
  auto k = traced(
      "@nki.jit\n"
      "def f(a, b):\n"
      "    out = nl.ndarray((128, 1024), dtype=nl.float32, buffer=nl.shared_hbm)\n"
      "    for n in nl.affine_range(2):\n"
      "        ps = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.psum)\n"
      "        for k in nl.affine_range(2):\n"
      "            a_t = nl.load(a[k * 128:(k + 1) * 128, :])\n"
      "            b_t = nl.load(b[k * 128:(k + 1) * 128, n * 512:(n + 1) * 512])\n"
      "            ps += nisa.nc_matmul(a_t, b_t)\n"
      "        nl.store(out[:, n * 512:(n + 1) * 512], value=nl.copy(ps))\n"
      "    return out\n",
      {"256x128:float32", "256x1024:float32"});
  ASSERT_TRUE(k);
  const Liveness lv = on_chip_liveness(*k);
  ASSERT_EQ(lv.positions, 5);
  const LiveRange ps = range_of(*k, lv, "ps"), a_t = range_of(*k, lv, "a_t");
  EXPECT_EQ(ps.first, 0);  // the start of the k loop, not the matmul at position 2
  EXPECT_EQ(ps.last, 3);
  EXPECT_EQ(a_t.first, 0);
  EXPECT_EQ(a_t.last, 2);
}

// A tile created before a loop and only used inside it, read before it is written in the body
// (a running value): it carries data from one iteration to the next, so it is live for the
// whole loop. Positions (the loop body): 0 load t, 1 s = s + t, 2 store s.
TEST(Liveness, ReadBeforeWriteIsLoopCarried) {
  auto k = traced(
      "@nki.jit\n"
      "def f(x):\n"
      "    out = nl.ndarray((512, 64), dtype=x.dtype, buffer=nl.shared_hbm)\n"
      "    s = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.sbuf)\n"
      "    for i in nl.sequential_range(4):\n"
      "        t = nl.load(x[i * 128:(i + 1) * 128, :])\n"
      "        s[...] = nl.add(s, t)\n"
      "        nl.store(out[i * 128:(i + 1) * 128, :], value=s)\n"
      "    return out\n",
      {"512x64:float32"});
  ASSERT_TRUE(k);
  const Liveness lv = on_chip_liveness(*k);
  ASSERT_EQ(lv.positions, 3);
  const LiveRange s = range_of(*k, lv, "s"), t = range_of(*k, lv, "t");
  EXPECT_EQ(s.first, 0);  // not 1, its first access
  EXPECT_EQ(s.last, 2);
  EXPECT_EQ(t.first, 0);
  EXPECT_EQ(t.last, 1);
}

// Tiles used in different arms of a branch are never live together; a tile read in both arms
// spans them. Positions: 0 load s, then arm: 1 exp, 2 store; else arm: 3 negative, 4 store.
TEST(Liveness, BranchArmsDoNotOverlap) {
  auto k = traced(
      "@nki.jit\n"
      "def f(x):\n"
      "    out = nl.ndarray((256, 64), dtype=x.dtype, buffer=nl.shared_hbm)\n"
      "    for i in nl.affine_range(2):\n"
      "        s = nl.load(x[i * 128:(i + 1) * 128, :])\n"
      "        if i == 0:\n"
      "            a = nl.exp(s)\n"
      "            nl.store(out[i * 128:(i + 1) * 128, :], value=a)\n"
      "        else:\n"
      "            b = nl.negative(s)\n"
      "            nl.store(out[i * 128:(i + 1) * 128, :], value=b)\n"
      "    return out\n",
      {"256x64:float32"});
  ASSERT_TRUE(k);
  const Liveness lv = on_chip_liveness(*k);
  ASSERT_EQ(lv.positions, 5);
  const LiveRange s = range_of(*k, lv, "s"), a = range_of(*k, lv, "a"), b = range_of(*k, lv, "b");
  EXPECT_EQ(a.first, 1);
  EXPECT_EQ(a.last, 2);
  EXPECT_EQ(b.first, 3);
  EXPECT_EQ(b.last, 4);
  EXPECT_EQ(s.first, 0);
  EXPECT_EQ(s.last, 3);
}

TEST(Capacity, PartitionBytesCountBlockAndFreeDims) {
  ir::TensorDecl d;
  d.shape = {4, 128, 8, 32};
  d.partition_dim = 1;
  d.dtype = DType::BFloat16;
  EXPECT_EQ(partition_bytes(d), 4 * 8 * 32 * 2);
}

// n tiles of 70 KiB loaded, then stored: all n are live at the last load. Three (210 KiB) fit
// the 224 KiB of a trn2 partition but not the 192 KiB of trn1; four fit neither.
std::string load_then_store(int tiles, int parts, int cols) {
  std::string shape = "(" + std::to_string(parts) + ", " + std::to_string(cols) + ")";
  std::string s =
      "@nki.jit\n"
      "def f(x):\n"
      "    out = nl.ndarray(" + shape + ", dtype=x.dtype, buffer=nl.shared_hbm)\n";
  for (int i = 0; i < tiles; ++i) s += "    t" + std::to_string(i) + " = nl.load(x)\n";
  for (int i = 0; i < tiles; ++i) s += "    nl.store(out, value=t" + std::to_string(i) + ")\n";
  return s + "    return out\n";
}

// The live-range estimate only warns (the compiler's allocator decides): n tiles of 70 KiB all
// live at the last load. Three (210 KiB) fit the 224 KiB of a trn2 partition but not the
// 192 KiB of trn1; four fit neither. No single instruction needs more than 70 KiB.
TEST(Capacity, SbufEstimatePerTargetWarns) {
  const std::vector<std::string> args = {"128x17920:float32"};
  TraceResult four = trace(load_then_store(4, 128, 17920), args);
  EXPECT_EQ(error_of(four), nullptr);
  EXPECT_TRUE(four.ok());
  const Diagnostic* e = warning_of(four, "sbuf_capacity_estimate");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->line, 10);  // t3, which takes the usage to 280 KiB
  EXPECT_EQ(e->col, 10);
  EXPECT_NE(e->message.find("when 't3' is allocated"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("reaches 280 KiB"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("224 KiB of a trn2 SBUF partition"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("'t0' [128, 17920] float32 (70 KiB, line 7)"), std::string::npos)
      << e->message;
  TraceResult three = trace(load_then_store(3, 128, 17920), args);
  EXPECT_EQ(warning_of(three, "sbuf_capacity_estimate"), nullptr);
  TraceResult three_trn1 = trace(load_then_store(3, 128, 17920), args, Target::Trn1);
  EXPECT_EQ(error_of(three_trn1), nullptr);
  e = warning_of(three_trn1, "sbuf_capacity_estimate");
  ASSERT_NE(e, nullptr);
  EXPECT_NE(e->message.find("192 KiB of a trn1 SBUF partition"), std::string::npos) << e->message;
  ASSERT_TRUE(three.kernel);
  EXPECT_EQ(peak_partition_bytes(*three.kernel, ir::Buffer::Sbuf), 210 * 1024);
}

// Tiles of at most 32 partitions can sit side by side in the four partition quadrants, so five
// [32, 40960] fp32 tiles (160 KiB per partition each, 800 KiB summed) need only 200 KiB of the
// fullest partition and may fit trn2's 224 KiB; six need 240 KiB.
TEST(Capacity, SmallPartitionTilesShareQuadrants) {
  const std::vector<std::string> args = {"32x40960:float32"};
  TraceResult five = trace(load_then_store(5, 32, 40960), args);
  EXPECT_EQ(warning_of(five, "sbuf_capacity_estimate"), nullptr);
  ASSERT_TRUE(five.kernel);
  EXPECT_EQ(peak_partition_bytes(*five.kernel, ir::Buffer::Sbuf), 200 * 1024);
  TraceResult six = trace(load_then_store(6, 32, 40960), args);
  EXPECT_EQ(error_of(six), nullptr);
  const Diagnostic* e = warning_of(six, "sbuf_capacity_estimate");
  ASSERT_NE(e, nullptr);
  EXPECT_NE(e->message.find("reaches 240 KiB"), std::string::npos) << e->message;
}

// Eight [128, 512] fp32 accumulators fill the eight 2 KiB PSUM banks; a ninth does not fit in
// program order (a warning: each matmul needs one bank).
TEST(Capacity, PsumEightBanks) {
  auto body = [](int accs) {
    return "@nki.jit\n"
           "def f(a, b):\n"
           "    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)\n"
           "    ps = [nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum) for j in range(" +
           std::to_string(accs) +
           ")]\n"
           "    for k in nl.affine_range(2):\n"
           "        a_t = nl.load(a[k * 128:(k + 1) * 128, :])\n"
           "        b_t = nl.load(b[k * 128:(k + 1) * 128, :])\n"
           "        for j in nl.static_range(" + std::to_string(accs) + "):\n"
           "            ps[j][...] += nisa.nc_matmul(a_t, b_t)\n"
           "    res = nl.copy(ps[0])\n"
           "    for j in nl.static_range(1, " + std::to_string(accs) + "):\n"
           "        res = nl.add(res, ps[j])\n"
           "    nl.store(out, value=res)\n"
           "    return out\n";
  };
  const std::vector<std::string> args = {"256x128:float32", "256x512:float32"};
  TraceResult eight = trace(body(8), args);
  EXPECT_EQ(error_of(eight), nullptr);
  EXPECT_EQ(warning_of(eight, "psum_capacity_estimate"), nullptr);
  ASSERT_TRUE(eight.kernel);
  EXPECT_EQ(peak_partition_bytes(*eight.kernel, ir::Buffer::Psum), 16 * 1024);
  TraceResult nine = trace(body(9), args);
  EXPECT_EQ(error_of(nine), nullptr);
  const Diagnostic* e = warning_of(nine, "psum_capacity_estimate");
  ASSERT_NE(e, nullptr);
  EXPECT_NE(e->message.find("reaches 18 KiB"), std::string::npos) << e->message;
  EXPECT_EQ(e->line, 7);
}

// Block dimensions are logical (nki_block_dimension_migration_guide.rst): a block tensor indexed
// a[i, j] by every access inside the loops over i and j needs one physical tile, not 16 x 8.
TEST(Capacity, BlockTensorPrivatisedByLoops) {
  TraceResult r = trace(
      "@nki.jit\n"
      "def f(inp):\n"
      "    output = nl.ndarray((16, 8, 128, 2, 512), dtype=nl.float32, buffer=nl.shared_hbm)\n"
      "    a = nl.ndarray((16, 8, nl.par_dim(128), 2, 512), dtype=nl.float32, buffer=nl.sbuf)\n"
      "    for i in range(16):\n"
      "        for j in range(8):\n"
      "            a[i, j] = nl.load(inp[i, j])\n"
      "            a[i, j] = nl.exp(a[i, j])\n"
      "            nl.store(output[i, j], value=a[i, j])\n"
      "    return output\n",
      {"16x8x128x2x512:float32"}, Target::Trn1);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(warning_of(r, "sbuf_capacity_estimate"), nullptr);
  ASSERT_TRUE(r.kernel);
  const Liveness lv = on_chip_liveness(*r.kernel);
  EXPECT_EQ(range_of(*r.kernel, lv, "a").tiles, 1);
  EXPECT_EQ(peak_partition_bytes(*r.kernel, ir::Buffer::Sbuf), 4 * 1024);
}

// Blocks written in one loop and read in another are all alive between the loops; a block index
// i % 2 reaches two tiles; a block read before it is written in each iteration (carried
// across the loop that does not select it) keeps every tile its accesses reach.
TEST(Capacity, BlockTensorLiveTilesFromAccessPattern) {
  auto tiles = [](const std::string& loops) {
    TraceResult r = trace(
        "@nki.jit\n"
        "def f(inp):\n"
        "    res = nl.ndarray((8, 128, 512), dtype=inp.dtype, buffer=nl.shared_hbm)\n"
        "    buf = nl.ndarray((8, nl.par_dim(128), 512), dtype=inp.dtype, buffer=nl.sbuf)\n" +
            loops + "    return res\n",
        {"8x128x512:float32"});
    for (const Diagnostic& d : r.diagnostics)
      if (d.severity == Severity::Error) ADD_FAILURE() << d.code << ": " << d.message;
    if (!r.kernel) return int64_t{-1};
    const Liveness lv = on_chip_liveness(*r.kernel);
    return range_of(*r.kernel, lv, "buf").tiles;
  };
  EXPECT_EQ(tiles("    for i in range(8):\n"
                  "        buf[i] = nl.load(inp[i])\n"
                  "    for i in range(8):\n"
                  "        nl.store(res[i], buf[i])\n"),
            8);
  EXPECT_EQ(tiles("    for i in range(8):\n"
                  "        buf[i] = nl.load(inp[i])\n"
                  "        nl.store(res[i], buf[i])\n"),
            1);
  EXPECT_EQ(tiles("    for i in range(8):\n"
                  "        buf[i % 2] = nl.load(inp[i])\n"
                  "        nl.store(res[i], buf[i % 2])\n"),
            2);
  EXPECT_EQ(tiles("    for k in nl.sequential_range(2):\n"
                  "        for i in range(8):\n"
                  "            buf[i] = nl.add(buf[i], 1.0)\n"
                  "    for i in range(8):\n"
                  "        nl.store(res[i], buf[i])\n"),
            8);
}

// e = activation(exp, z) is z's last use: e may take z's place, so three 50 KiB tiles are live
// there, not four (no warning on trn1's 192 KiB).
TEST(Capacity, ResultTakesThePlaceOfADyingOperand) {
  TraceResult r = trace(
      "@nki.jit\n"
      "def f(x, y, w):\n"
      "    out = nl.ndarray((128, 12800), dtype=nl.float32, buffer=nl.shared_hbm)\n"
      "    a = nl.load(x)\n"
      "    b = nl.load(y)\n"
      "    z = nl.load(w)\n"
      "    e = nisa.activation(op=nl.exp, data=z)\n"
      "    r = nl.add(nl.multiply(e, a), b)\n"
      "    nl.store(out, value=r)\n"
      "    return out\n",
      {"128x12800:float32", "128x12800:float32", "128x12800:float32"}, Target::Trn1);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(warning_of(r, "sbuf_capacity_estimate"), nullptr);
  ASSERT_TRUE(r.kernel);
  EXPECT_EQ(peak_partition_bytes(*r.kernel, ir::Buffer::Sbuf), 150 * 1024);
}

// Provable overflows are errors: one tile larger than a partition, and the distinct operands of
// one instruction that do not fit together.
TEST(Capacity, ProvableOverflowsAreErrors) {
  TraceResult one = trace(
      "@nki.jit\n"
      "def f(x):\n"
      "    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)\n"
      "    t = nl.load(x)\n"
      "    nl.store(out, value=t)\n"
      "    return out\n",
      {"128x50176:float32"}, Target::Trn1);
  const Diagnostic* e = error_of(one);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->code, "sbuf_capacity_exceeded");
  EXPECT_EQ(e->line, 7);
  EXPECT_NE(e->message.find("needs 196 KiB per partition"), std::string::npos) << e->message;
  // The same tile fits trn2's 224 KiB.
  EXPECT_EQ(error_of(trace(
                "@nki.jit\n"
                "def f(x):\n"
                "    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)\n"
                "    t = nl.load(x)\n"
                "    nl.store(out, value=t)\n"
                "    return out\n",
                {"128x50176:float32"}, Target::Trn2)),
            nullptr);
  TraceResult two = trace(
      "@nki.jit\n"
      "def f(x, y):\n"
      "    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)\n"
      "    a = nl.load(x)\n"
      "    b = nl.load(y)\n"
      "    nl.store(out, value=nl.add(a, b))\n"
      "    return out\n",
      {"128x25600:float32", "128x25600:float32"}, Target::Trn1);
  e = error_of(two);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->code, "sbuf_capacity_exceeded");
  EXPECT_EQ(e->line, 9);
  EXPECT_NE(e->message.find("need at least 200 KiB"), std::string::npos) << e->message;
  // a + a reads one tensor: 100 KiB.
  EXPECT_EQ(error_of(trace(
                "@nki.jit\n"
                "def f(x):\n"
                "    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)\n"
                "    a = nl.load(x)\n"
                "    nl.store(out, value=nl.add(a, a))\n"
                "    return out\n",
                {"128x25600:float32"}, Target::Trn1)),
            nullptr);
}

// PSUM: the tracer keeps every PSUM tile within one 2 KiB bank (psum_fmax), so the provable PSUM
// error needs a hand-built kernel: one instruction reading all 9 blocks of a (9, 128, 512) fp32
// PSUM tensor needs 18 KiB of each PSUM partition.
TEST(Capacity, PsumOperandsOfOneInstruction) {
  ir::Kernel k;
  k.name = "f";
  auto add_tensor = [&](const std::string& name, ir::Buffer buf, std::vector<int64_t> shape, int pdim) {
    ir::TensorDecl d;
    d.id = static_cast<int>(k.tensors.size());
    d.name = name;
    d.buffer = buf;
    d.shape = std::move(shape);
    d.partition_dim = pdim;
    d.loc = SourceLoc{3 + d.id, 5};
    k.tensors.push_back(d);
    return d.id;
  };
  const int ps = add_tensor("ps", ir::Buffer::Psum, {9, 128, 512}, 1);
  const int sb = add_tensor("sb", ir::Buffer::Sbuf, {128, 9, 512}, 0);
  auto full = [&](int t, std::vector<std::vector<int64_t>> coef) {
    ir::Access a;
    a.tensor = t;
    a.shape = k.tensors[static_cast<size_t>(t)].shape;
    a.offset.assign(a.shape.size(), ir::ScalarExpr::of(0));
    a.coef = std::move(coef);
    return a;
  };
  ir::Instr copy;
  copy.op = ir::Opcode::Copy;
  copy.name = "copy";
  copy.loc = SourceLoc{9, 5};
  copy.dst = full(sb, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  ir::Access src = full(ps, {{0, 1, 0}, {1, 0, 0}, {0, 0, 1}});
  src.shape = {128, 9, 512};
  copy.srcs.push_back(ir::Operand::of(src));
  k.body.push_back(ir::Stmt{copy});
  std::vector<Diagnostic> warnings;
  std::optional<Diagnostic> e = capacity_error(k, Target::Trn1, &warnings);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->code, "psum_capacity_exceeded");
  EXPECT_EQ(e->line, 9);
  EXPECT_NE(e->message.find("need at least 18 KiB"), std::string::npos) << e->message;
}

// Direct allocation places tiles at explicit addresses: the liveness model does not apply.
TEST(Capacity, DirectAllocationIsNotLivenessChecked) {
  TraceResult r = trace(
      "import neuronxcc.nki.compiler as ncc\n"
      "@nki.jit\n"
      "def f(x):\n"
      "    out = nl.ndarray((128, 20480), dtype=x.dtype, buffer=nl.shared_hbm)\n"
      "    t0 = nl.ndarray((128, 20480), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))\n"
      "    t1 = nl.ndarray((128, 20480), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))\n"
      "    t2 = nl.ndarray((128, 20480), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))\n"
      "    t0[...] = nl.load(x)\n"
      "    t1[...] = nl.load(x)\n"
      "    t2[...] = nl.load(x)\n"
      "    t0[...] = nl.add(t0, t1)\n"
      "    t0[...] = nl.add(t0, t2)\n"
      "    nl.store(out, value=t0)\n"
      "    return out\n",
      {"128x20480:float32"});
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_NE(d.code, "sbuf_capacity_exceeded");
    EXPECT_NE(d.code, "sbuf_capacity_estimate");
  }
}
