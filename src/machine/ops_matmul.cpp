// TensorE matmul: dst[M,N] (+)= stationary[K,M]^T @ moving[K,N], fp32 products and accumulation
// (spec §2.10.1, §7.3). Operands are converted to fp32 (exact for fp8/bf16/fp16; tf32 values are
// already held rounded) and multiplied with cblas_sgemm.
#include <cblas.h>

#include <algorithm>
#include <cstring>

#include "base/diag_codes.h"
#include "machine/ops.h"
#include "machine/ops_common.h"

namespace nki::machine {

namespace {

// A [rows, cols] fp32 matrix: storage used in place when rows are stride-1, else a dense copy.
struct Matrix {
  Scratch<float> buf;
  const float* p = nullptr;
  int64_t ld = 0;
};

Matrix load_matrix(ExecContext& cx, const ir::Access& a, int64_t rows, int64_t cols) {
  Matrix mtx;
  View v = resolve(cx, a, nullptr, false, Use::Read);
  if (v.dtype == DType::Float32 && v.indirect.empty() && v.shadow == nullptr) {
    if (v.contiguous()) {
      mtx.p = reinterpret_cast<const float*>(v.data) + v.base;
      mtx.ld = cols;
      return mtx;
    }
    // [rows, cols] iteration with unit inner stride: pass the row stride to BLAS.
    if (v.shape.size() == 2 && v.shape[0] == rows && v.shape[1] == cols && v.strides[1] == 1 &&
        v.strides[0] >= cols) {
      mtx.p = reinterpret_cast<const float*>(v.data) + v.base;
      mtx.ld = v.strides[0];
      return mtx;
    }
  }
  mtx.buf = scratch<float>(cx, rows * cols);
  cx.note_uninit(gather_f32(v, nullptr, mtx.buf.data()), v.tensor);
  mtx.p = mtx.buf.data();
  mtx.ld = cols;
  return mtx;
}

}  // namespace

// Tiles are at most 128x512x128: OpenBLAS threading only adds synchronisation cost there.
BlasSingleThread::BlasSingleThread() : saved_(openblas_get_num_threads()) {
  openblas_set_num_threads(1);
}
BlasSingleThread::~BlasSingleThread() { openblas_set_num_threads(saved_); }

void exec_matmul(ExecContext& cx, const ir::Instr& in) {
  if (in.srcs.size() < 2 || in.srcs[0].is_imm || in.srcs[1].is_imm)
    cx.fail(diag::Code::sim_bad_ir, "matmul needs stationary and moving tensor operands");
  const ir::Access& sa = in.srcs[0].access;
  const ir::Access& ma = in.srcs[1].access;
  if (sa.shape.empty() || ma.shape.empty() || sa.shape[0] != ma.shape[0])
    cx.fail(diag::Code::sim_bad_ir, "matmul operands must share their contraction (partition) size");
  const int64_t K = sa.shape[0];
  const int64_t M = K ? ir::element_count(sa.shape) / K : 0;
  const int64_t N = K ? ir::element_count(ma.shape) / K : 0;
  if (ir::element_count(in.dst.shape) != M * N)
    cx.fail(diag::Code::sim_bad_ir, "matmul destination has " +
                              std::to_string(ir::element_count(in.dst.shape)) +
                              " elements, expected " + std::to_string(M) + "x" +
                              std::to_string(N));
  ActiveSet act = eval_mask(cx.env, in.mask, in.dst.shape);
  if (act.kind == ActiveSet::None) return;
  const uint8_t* m = act.ptr();
  View dst = resolve(cx, in.dst, m);
  Matrix A = load_matrix(cx, sa, K, M);
  Matrix B = load_matrix(cx, ma, K, N);

  // Result written in place when the destination is fp32 with unit inner stride.
  float* c = nullptr;
  int64_t ldc = N;
  Scratch<float> cbuf;
  const int droot = cx.mem.root(dst.tensor);
  const bool dst_is_operand = droot == cx.mem.root(sa.tensor) || droot == cx.mem.root(ma.tensor);
  if (m == nullptr && dst.shadow == nullptr && dst.dtype == DType::Float32 &&
      dst.indirect.empty() && !dst_is_operand) {
    if (dst.contiguous()) {
      c = reinterpret_cast<float*>(dst.data) + dst.base;
    } else if (dst.shape.size() == 2 && dst.shape[0] == M && dst.shape[1] == N &&
               dst.strides[1] == 1 && dst.strides[0] >= N) {
      c = reinterpret_cast<float*>(dst.data) + dst.base;
      ldc = dst.strides[0];
    }
  }
  const bool direct = c != nullptr;
  if (!direct) {
    cbuf = scratch<float>(cx, M * N);
    if (in.accumulate)
      cx.note_uninit(gather_f32(dst, m, cbuf.data()), dst.tensor);
    else
      std::fill(cbuf.begin(), cbuf.end(), 0.0f);
    c = cbuf.data();
  } else if (!in.accumulate) {
    // BLAS may compute beta*C even for beta == 0; clear so NaN garbage cannot leak in.
    for (int64_t i = 0; i < M; ++i) std::memset(c + i * ldc, 0, static_cast<size_t>(N) * 4);
  }
  if (M > 0 && N > 0) {
    if (K > 0)
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, static_cast<int>(M),
                  static_cast<int>(N), static_cast<int>(K), 1.0f, A.p, static_cast<int>(A.ld),
                  B.p, static_cast<int>(B.ld), in.accumulate ? 1.0f : 0.0f, c,
                  static_cast<int>(ldc));
    else if (!in.accumulate)
      std::fill(c, c + M * ldc, 0.0f);
  }
  if (!direct) scatter_f32(dst, m, cbuf.data());
}

}  // namespace nki::machine
