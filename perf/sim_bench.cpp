// Simulator throughput: (a) a tiled 1024x1024x1024 bf16 matmul kernel (K/M tiles of 128, N tiles
// of 512, PSUM accumulation, copy out) and (b) a tiled fp32 element-wise add over 2^22 elements
// in [128, 512] tiles, each built by hand in IR and run by nki::machine::execute. Each is timed
// against the same computation done directly (cblas_sgemm on fp32; a plain vectorised loop) and,
// when /usr/bin/python3 has numpy, against numpy (a.T @ b in fp32; a + b).
//
// Usage: sim_bench [reps]     (prints one line per measurement and the ratios)
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>

#include "base/dtype_convert.h"
#include "ir_builder.h"
#include "machine/executor.h"

using namespace nki;
using namespace nki::testing;

namespace {

double best_of(int reps, const std::function<void()>& fn) {
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    fn();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  return best;
}

ir::Kernel matmul_kernel(int64_t n) {
  KernelBuilder kb("matmul_bf16");
  auto& k = kb.k;
  const int64_t TK = 128, TM = 128, TN = 512;
  int lhsT = kb.param("lhsT", DType::BFloat16, {n, n});
  int rhs = kb.param("rhs", DType::BFloat16, {n, n});
  int out = kb.output("out", DType::Float32, {n, n});
  int ta = kb.sbuf("a", DType::BFloat16, {TK, TM}, 3);
  int tb = kb.sbuf("b", DType::BFloat16, {TK, TN}, 3);
  int ps = kb.psum("ps", {TM, TN}, 2);
  int res = kb.sbuf("res", DType::Float32, {TM, TN}, 2);
  k.body.push_back(kb.loop(0, n / TM, 1, [&](int m) {
    return std::vector<ir::Stmt>{kb.loop(0, n / TN, 1, [&](int j) {
      std::vector<ir::Stmt> body;
      body.push_back(kb.loop(0, n / TK, 1, [&](int kk) {
        ir::Instr mm;
        mm.op = ir::Opcode::Matmul;
        mm.name = "nisa.nc_matmul";
        mm.engine = ir::Engine::Tensor;
        mm.dst = whole(k, ps);
        mm.srcs = {T(whole(k, ta)), T(whole(k, tb))};
        mm.accumulate = true;
        return std::vector<ir::Stmt>{
            S(copy(whole(k, ta), box(k, lhsT, {V(kk, TK), V(m, TM)}, {TK, TM}))),
            S(copy(whole(k, tb), box(k, rhs, {V(kk, TK), V(j, TN)}, {TK, TN}))), S(mm)};
      }));
      body.push_back(S(copy(whole(k, res), whole(k, ps), ir::Engine::Vector)));
      body.push_back(S(copy(box(k, out, {V(m, TM), V(j, TN)}, {TM, TN}), whole(k, res))));
      return body;
    })};
  }));
  return kb.k;
}

ir::Kernel add_kernel(int64_t rows, int64_t cols) {
  KernelBuilder kb("add_f32");
  auto& k = kb.k;
  const int64_t TP = 128, TF = 512;
  int a = kb.param("a", DType::Float32, {rows, cols});
  int b = kb.param("b", DType::Float32, {rows, cols});
  int o = kb.output("out", DType::Float32, {rows, cols});
  int ta = kb.sbuf("ta", DType::Float32, {TP, TF}, 2);
  int tb = kb.sbuf("tb", DType::Float32, {TP, TF}, 2);
  int tc = kb.sbuf("tc", DType::Float32, {TP, TF}, 2);
  k.body.push_back(kb.loop(0, rows / TP, 1, [&](int i) {
    return std::vector<ir::Stmt>{kb.loop(0, cols / TF, 1, [&](int j) {
      std::vector<ScalarExpr> off = {V(i, TP), V(j, TF)};
      return std::vector<ir::Stmt>{
          S(copy(whole(k, ta), box(k, a, off, {TP, TF}))),
          S(copy(whole(k, tb), box(k, b, off, {TP, TF}))),
          S(alu(ir::Alu::Add, whole(k, tc), T(whole(k, ta)), T(whole(k, tb)))),
          S(copy(box(k, o, off, {TP, TF}), whole(k, tc)))};
    })};
  }));
  return kb.k;
}

// Instruction overhead: `iters` iterations of {load [128, 4], multiply by 2, store} on tiny tiles.
ir::Kernel small_tiles_kernel(int64_t iters) {
  KernelBuilder kb("small_tiles");
  auto& k = kb.k;
  int a = kb.param("a", DType::Float32, {128 * iters, 4});
  int o = kb.output("out", DType::Float32, {128 * iters, 4});
  int t = kb.sbuf("t", DType::Float32, {128, 4}, 1);
  int u = kb.sbuf("u", DType::Float32, {128, 4}, 1);
  k.body.push_back(kb.loop(0, iters, 1, [&](int i) {
    std::vector<ScalarExpr> off = {V(i, 128), C(0)};
    return std::vector<ir::Stmt>{
        S(copy(whole(k, t), box(k, a, off, {128, 4}))),
        S(alu(ir::Alu::Multiply, whole(k, u), T(whole(k, t)), I(2.0))),
        S(copy(box(k, o, off, {128, 4}), whole(k, u)))};
  }));
  return kb.k;
}

// Runs a numpy snippet that prints one float (seconds); returns -1 when unavailable.
double numpy_seconds(const std::string& code) {
  std::string cmd = "/usr/bin/python3 -c \"" + code + "\" 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  double t = -1;
  if (fscanf(p, "%lf", &t) != 1) t = -1;
  pclose(p);
  return t;
}

void report(const char* what, double sim, double direct, double np) {
  std::printf("%-28s sim %8.2f ms | direct %8.2f ms (sim/direct %.2fx)", what, sim * 1e3,
              direct * 1e3, sim / direct);
  if (np > 0)
    std::printf(" | numpy %8.2f ms (sim/numpy %.2fx)", np * 1e3, sim / np);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  // Optional second argument: "matmul" or "add" to run only that benchmark.
  const std::string only = argc > 2 ? argv[2] : "";
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::printf("sim_bench (best of %d; simulator times include argument checks and result "
              "read-back)\n", reps);

  if (only.empty() || only == "matmul") {
    const int64_t n = 1024;
    std::vector<uint16_t> a16(n * n), b16(n * n);
    std::vector<float> a32(n * n), b32(n * n), c32(n * n);
    for (int64_t i = 0; i < n * n; ++i) {
      a16[i] = f32_to_bf16_bits(u(rng));
      b16[i] = f32_to_bf16_bits(u(rng));
      a32[i] = bf16_bits_to_f32(a16[i]);
      b32[i] = bf16_bits_to_f32(b16[i]);
    }
    ir::Kernel mk = matmul_kernel(n);
    std::vector<HostTensor> margs = {host_of<uint16_t>(DType::BFloat16, {n, n}, a16),
                                     host_of<uint16_t>(DType::BFloat16, {n, n}, b16)};
    machine::RunResult keep;
    double sim = best_of(reps, [&] { keep = machine::execute(mk, margs); });
    double direct = best_of(reps, [&] {
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n, n, n, 1.0f, a32.data(), n,
                  b32.data(), n, 0.0f, c32.data(), n);
    });
    auto sim_out = values<float>(keep.outputs[0]);
    double max_err = 0;
    for (int64_t i = 0; i < n * n; ++i)
      max_err = std::max(max_err, static_cast<double>(std::fabs(sim_out[i] - c32[i])));
    double np = numpy_seconds(
        "import numpy as np, time\n"
        "a=np.random.rand(1024,1024).astype(np.float32); b=np.random.rand(1024,1024).astype(np.float32)\n"
        "best=1e9\n"
        "for _ in range(" + std::to_string(reps) + "):\n"
        "    t=time.perf_counter(); c=a.T@b; best=min(best,time.perf_counter()-t)\n"
        "print(best)");
    report("matmul 1024^3 bf16", sim, direct, np);
    std::printf("  max |sim - sgemm| = %.3g\n", max_err);
  }

  if (only.empty() || only == "add") {
    const int64_t rows = 2048, cols = 2048;  // 2^22 elements
    std::vector<float> x(rows * cols), y(rows * cols), z;
    for (auto& v : x) v = u(rng);
    for (auto& v : y) v = u(rng);
    ir::Kernel ak = add_kernel(rows, cols);
    std::vector<HostTensor> aargs = {host_f32({rows, cols}, x), host_f32({rows, cols}, y)};
    machine::RunResult keep;
    double sim = best_of(reps, [&] { keep = machine::execute(ak, aargs); });
    double direct = best_of(reps, [&] {
      std::vector<float> out(rows * cols);  // numpy allocates its result too
      const float* xp = x.data();
      const float* yp = y.data();
      float* op = out.data();
      for (int64_t i = 0; i < rows * cols; ++i) op[i] = xp[i] + yp[i];
      z.swap(out);
    });
    auto sim_out = values<float>(keep.outputs[0]);
    bool same = sim_out == z;
    double np = numpy_seconds(
        "import numpy as np, time\n"
        "a=np.random.rand(2048,2048).astype(np.float32); b=np.random.rand(2048,2048).astype(np.float32)\n"
        "best=1e9\n"
        "for _ in range(" + std::to_string(reps) + "):\n"
        "    t=time.perf_counter(); c=a+b; best=min(best,time.perf_counter()-t)\n"
        "print(best)");
    report("add 2^22 fp32 [128,512]", sim, direct, np);
    std::printf("  result identical to the direct loop: %s\n", same ? "yes" : "NO");
  }
  if (only.empty() || only == "small") {
    const int64_t iters = 20000;
    std::vector<float> x(128 * 4 * iters, 1.0f);
    ir::Kernel sk = small_tiles_kernel(iters);
    std::vector<HostTensor> sargs = {host_f32({128 * iters, 4}, x)};
    double sim = best_of(reps, [&] { machine::execute(sk, sargs); });
    std::printf("%-28s sim %8.2f ms = %.2f us per instruction (%lld instructions)\n",
                "small tiles [128,4]", sim * 1e3, sim * 1e6 / (3.0 * iters),
                static_cast<long long>(3 * iters));
  }
  return 0;
}
