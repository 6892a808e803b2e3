// Executor tests: TensorE matmul with PSUM accumulation over a K loop.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "base/dtype_convert.h"
#include "machine/executor.h"
#include "ir_builder.h"

using namespace nki;
using namespace nki::testing;
using machine::execute;

namespace {

// out[M, N] = lhsT[K, M]^T @ rhs[K, N]: tiles K=128, M=128, N=ntile; the PSUM tile is created
// (zeroed) inside the n loop and accumulated over the k loop.
ir::Kernel tiled_matmul(int64_t K, int64_t M, int64_t N, int64_t ntile, DType in_dt) {
  KernelBuilder kb("matmul");
  auto& k = kb.k;
  int lhsT = kb.param("lhsT", in_dt, {K, M});
  int rhs = kb.param("rhs", in_dt, {K, N});
  int out = kb.output("out", DType::Float32, {M, N});
  int ta = kb.sbuf("a", in_dt, {128, 128}, 3);
  int tb = kb.sbuf("b", in_dt, {128, ntile}, 3);
  int ps = kb.psum("ps", {128, ntile}, 2);
  int res = kb.sbuf("res", DType::Float32, {128, ntile}, 2);
  k.body.push_back(kb.loop(0, M / 128, 1, [&](int m) {
    return std::vector<ir::Stmt>{kb.loop(0, N / ntile, 1, [&](int n) {
      std::vector<ir::Stmt> body;
      body.push_back(kb.loop(0, K / 128, 1, [&](int kk) {
        ir::Instr mm;
        mm.op = ir::Opcode::Matmul;
        mm.name = "nisa.nc_matmul";
        mm.engine = ir::Engine::Tensor;
        mm.dst = whole(k, ps);
        mm.srcs = {T(whole(k, ta)), T(whole(k, tb))};
        mm.accumulate = true;
        return std::vector<ir::Stmt>{
            S(copy(whole(k, ta), box(k, lhsT, {V(kk, 128), V(m, 128)}, {128, 128}))),
            S(copy(whole(k, tb), box(k, rhs, {V(kk, 128), V(n, ntile)}, {128, ntile}))),
            S(mm)};
      }));
      body.push_back(S(copy(whole(k, res), whole(k, ps), ir::Engine::Vector)));
      body.push_back(S(copy(box(k, out, {V(m, 128), V(n, ntile)}, {128, ntile}), whole(k, res))));
      return body;
    })};
  }));
  return kb.k;
}

}  // namespace

TEST(ExecMatmul, PsumAccumulationOverKLoopMatchesNaive) {
  const int64_t K = 384, M = 256, N = 256;
  ir::Kernel k = tiled_matmul(K, M, N, 128, DType::Float32);
  // Small integers: every product and sum is exact in fp32, so the comparison is exact.
  std::vector<float> a(K * M), b(K * N);
  for (int64_t i = 0; i < K * M; ++i) a[i] = static_cast<float>((i * 7) % 11) - 5;
  for (int64_t i = 0; i < K * N; ++i) b[i] = static_cast<float>((i * 5) % 13) - 6;
  auto r = execute(k, {host_f32({K, M}, a), host_f32({K, N}, b)});
  auto out = values<float>(r.outputs[0]);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double s = 0;
      for (int64_t kk = 0; kk < K; ++kk) s += a[kk * M + i] * b[kk * N + j];
      ASSERT_EQ(out[i * N + j], static_cast<float>(s)) << i << "," << j;
    }
}

TEST(ExecMatmul, Bf16OperandsAccumulateInFp32) {
  const int64_t K = 256, M = 128, N = 64;
  ir::Kernel k = tiled_matmul(K, M, N, 64, DType::BFloat16);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<uint16_t> a(K * M), b(K * N);
  for (auto& x : a) x = f32_to_bf16_bits(u(rng));
  for (auto& x : b) x = f32_to_bf16_bits(u(rng));
  auto r = execute(k, {host_of<uint16_t>(DType::BFloat16, {K, M}, a),
                       host_of<uint16_t>(DType::BFloat16, {K, N}, b)});
  auto out = values<float>(r.outputs[0]);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double s = 0;
      for (int64_t kk = 0; kk < K; ++kk)
        s += static_cast<double>(bf16_bits_to_f32(a[kk * M + i])) * bf16_bits_to_f32(b[kk * N + j]);
      ASSERT_NEAR(out[i * N + j], s, 1e-4) << i << "," << j;
    }
}

// Without accumulate the matmul overwrites even a NaN-filled (uninitialised) PSUM tile.
TEST(ExecMatmul, OverwriteIgnoresUninitialisedPsum) {
  KernelBuilder kb("mm_overwrite");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {2, 3});
  int b = kb.param("b", DType::Float32, {2, 2});
  int o = kb.output("o", DType::Float32, {3, 2});
  int ps = kb.psum("ps", {3, 2}, 0, ir::TensorInit::Uninitialized);
  ir::Instr mm;
  mm.op = ir::Opcode::Matmul;
  mm.dst = whole(k, ps);
  mm.srcs = {T(whole(k, a)), T(whole(k, b))};
  k.body = {S(mm), S(copy(whole(k, o), whole(k, ps)))};
  // a = [[1,2,3],[4,5,6]] (K=2, M=3), b = [[1,0],[0,1]] -> out = a^T
  auto r = execute(k, {host_f32({2, 3}, {1, 2, 3, 4, 5, 6}), host_f32({2, 2}, {1, 0, 0, 1})});
  auto out = values<float>(r.outputs[0]);
  std::vector<float> expect = {1, 4, 2, 5, 3, 6};
  EXPECT_EQ(out, expect);
}
