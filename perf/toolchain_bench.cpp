// End-to-end toolchain benchmark through the real front end (parser + tracer + checks) and the
// simulator, on kernel files. Not a CTest test: run it and read the table.
//
//   toolchain_bench [--compile-reps N] [--exec-reps N] [--only compile|matmul|add|isolation]
//
// (a) compile latency (`nkiagent check` stand-in: load_source_file + toolchain::compile) of
//     docs/examples/01_elementwise_add.py, 04_matmul_psum.py and tutorial-size kernels;
// (b) perf/kernels/matmul_1024_bf16.py simulated vs numpy (fp32, /usr/bin/python3 subprocess)
//     and an in-process single-threaded cblas_sgemm;
// (c) perf/kernels/add_4m.py (2^22 fp32 elements) simulated vs numpy a + b and a plain loop;
// (d) the cost of isolation: compile and compile+simulate in-process vs in a child process.
// Each figure is the median over the repeats, with the min and max as the spread.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/dtype_convert.h"
#include "base/source.h"
#include "ir/verify.h"
#include "machine/executor.h"
#include "toolchain/toolchain.h"

#ifndef NKI_SOURCE_DIR
#define NKI_SOURCE_DIR "."
#endif

using namespace nki;
using Clock = std::chrono::steady_clock;

namespace {

struct Stats {
  double median = 0, min = 0, max = 0;
  int n = 0;
};

Stats stats_of(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.n = static_cast<int>(v.size());
  s.min = v.front();
  s.max = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  return s;
}

// Times `a` and `b` alternately (a, b, a, b, ...) so both see the same machine load.
std::pair<Stats, Stats> time_interleaved(int reps, const std::function<void()>& a,
                                         const std::function<void()>& b) {
  std::vector<double> ta, tb;
  for (int i = 0; i < reps; ++i) {
    auto t0 = Clock::now();
    a();
    auto t1 = Clock::now();
    b();
    auto t2 = Clock::now();
    ta.push_back(std::chrono::duration<double>(t1 - t0).count());
    tb.push_back(std::chrono::duration<double>(t2 - t1).count());
  }
  return {stats_of(ta), stats_of(tb)};
}

Stats time_reps(int reps, const std::function<void()>& fn) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    auto t0 = Clock::now();
    fn();
    t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return stats_of(t);
}

std::string src_path(const std::string& rel) { return std::string(NKI_SOURCE_DIR) + "/" + rel; }

// The `# nki-case: args=AxB:dtype,...` line of a kernel file (grid= is ignored here).
std::vector<front::ArgSpec> case_args(const SourceFilePtr& f) {
  std::vector<front::ArgSpec> out;
  const std::string& text = f->text();
  size_t p = text.find("# nki-case: args=");
  if (p == std::string::npos) return out;
  p += std::strlen("# nki-case: args=");
  size_t e = text.find_first_of(" \n", p);
  std::string list = text.substr(p, e - p);
  size_t s = 0;
  while (s < list.size()) {
    size_t c = list.find(',', s);
    // A comma inside a shape ("128,512:bf16") is not a separator: split at ',' after a ':dtype'.
    while (c != std::string::npos && list.rfind(':', c) < s) c = list.find(',', c + 1);
    std::string item = list.substr(s, c == std::string::npos ? std::string::npos : c - s);
    std::string err;
    if (auto a = front::parse_arg_spec(item, &err)) out.push_back(*a);
    if (c == std::string::npos) break;
    s = c + 1;
  }
  return out;
}

int grid_of(const SourceFilePtr& f) {
  size_t p = f->text().find(" grid=");
  if (p == std::string::npos || f->text().rfind("# nki-case:", p) == std::string::npos) return 0;
  return std::atoi(f->text().c_str() + p + 6);
}

std::shared_ptr<ir::Kernel> compile_or_die(const std::string& rel, const front::TraceOptions& o) {
  auto f = load_source_file(src_path(rel));
  auto r = toolchain::compile(f, o);
  if (!r.ok()) {
    std::fprintf(stderr, "compile of %s failed:\n", rel.c_str());
    for (const Diagnostic& d : r.diagnostics) std::fprintf(stderr, "  %s\n", d.message.c_str());
    std::exit(1);
  }
  return r.kernel;
}

front::TraceOptions options_for(const std::string& rel) {
  auto f = load_source_file(src_path(rel));
  front::TraceOptions o;
  o.args = case_args(f);
  if (int g = grid_of(f)) o.grid = {g};
  return o;
}

// Runs a /usr/bin/python3 snippet that prints "median min max" in seconds; false if unavailable.
bool python_stats(const std::string& code, const std::string& env, Stats* s) {
  std::string cmd = env + " /usr/bin/python3 -c \"" + code + "\" 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return false;
  int got = std::fscanf(p, "%lf %lf %lf", &s->median, &s->min, &s->max);
  pclose(p);
  return got == 3;
}

std::string numpy_snippet(const std::string& setup, const std::string& stmt, int reps) {
  return "import numpy as np, time, statistics as st\n" + setup +
         "\nts=[]\n"
         "for _ in range(" + std::to_string(reps) + "):\n"
         "    t=time.perf_counter(); " + stmt + "; ts.append(time.perf_counter()-t)\n"
         "print(st.median(ts), min(ts), max(ts))";
}

void row(const char* what, const Stats& s, const char* note = "") {
  std::printf("%-44s %10.3f ms  [%9.3f .. %9.3f]  n=%-4d %s\n", what, s.median * 1e3, s.min * 1e3,
              s.max * 1e3, s.n, note);
}

void ratio(const char* what, const Stats& num, const Stats& den, double target) {
  // Spread of the ratio: best case (min/max) to worst case (max/min) of the two samples.
  if (target <= 0) {  // a cost to report, not a goal
    std::printf("%-44s %10.2fx   [%8.2fx .. %8.2fx]\n", what, num.median / den.median,
                num.min / den.max, num.max / den.min);
    return;
  }
  std::printf("%-44s %10.2fx   [%8.2fx .. %8.2fx]  target <= %.0fx: %s\n", what,
              num.median / den.median, num.min / den.max, num.max / den.min, target,
              num.median / den.median <= target ? "met" : "NOT met");
}

HostTensor host(DType t, std::vector<int64_t> shape, const std::vector<float>& v) {
  HostTensor h;
  h.dtype = t;
  h.shape = std::move(shape);
  h.data.resize(v.size() * dtype_size(t));
  convert_f32_to(t, v.data(), h.data.data(), v.size());
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  int compile_reps = 200, exec_reps = 7;
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--compile-reps") compile_reps = std::max(1, std::atoi(argv[i + 1]));
    else if (a == "--exec-reps") exec_reps = std::max(1, std::atoi(argv[i + 1]));
    else if (a == "--only") only = argv[i + 1];
  }
  std::printf("toolchain_bench: median [min .. max] over n runs; machine shared and noisy\n\n");
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);

  if (only.empty() || only == "compile") {
    std::printf("(a) compile latency: load_source_file + toolchain::compile (target < 5 ms)\n");
    const char* files[] = {"docs/examples/01_elementwise_add.py", "docs/examples/04_matmul_psum.py",
                           "docs/examples/06_layernorm.py", "docs/examples/10_attention_block.py",
                           "perf/kernels/matmul_1024_bf16.py", "perf/kernels/add_4m.py"};
    for (const char* rel : files) {
      front::TraceOptions o = options_for(rel);
      compile_or_die(rel, o);  // warm-up and validity check
      Stats s = time_reps(compile_reps, [&] {
        auto f = load_source_file(src_path(rel));
        auto r = toolchain::compile(f, o);
        if (!r.ok()) std::abort();
      });
      row(rel, s, s.median < 5e-3 ? "(< 5 ms: met)" : "(< 5 ms: NOT met)");
      // The IR invariant check inside toolchain::compile (ir/verify.h), alone, same run.
      auto kernel = compile_or_die(rel, o);
      Stats v = time_reps(compile_reps, [&] {
        if (ir::verify_kernel(*kernel)) std::abort();
      });
      char note[64];
      std::snprintf(note, sizeof note, "(%.2f %% of the compile median)", 100.0 * v.median / s.median);
      row("  of which ir::verify_kernel", v, note);
    }
    std::printf("\n");
  }

  if (only.empty() || only == "matmul") {
    const int64_t n = 1024;
    std::printf("(b) matmul 1024x1024x1024 bf16 (perf/kernels/matmul_1024_bf16.py)\n");
    const std::string rel = "perf/kernels/matmul_1024_bf16.py";
    front::TraceOptions o = options_for(rel);
    Stats comp = time_reps(std::max(5, compile_reps / 10), [&] { compile_or_die(rel, o); });
    auto kernel = compile_or_die(rel, o);
    std::vector<float> a(n * n), b(n * n), c(n * n);
    for (auto& x : a) x = bf16_bits_to_f32(f32_to_bf16_bits(u(rng)));
    for (auto& x : b) x = bf16_bits_to_f32(f32_to_bf16_bits(u(rng)));
    std::vector<HostTensor> args = {host(DType::BFloat16, {n, n}, a), host(DType::BFloat16, {n, n}, b)};
    machine::RunResult rr;
    Stats sim = time_reps(exec_reps, [&] { rr = machine::execute(*kernel, args); });
    openblas_set_num_threads(1);
    Stats blas = time_reps(exec_reps, [&] {
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n,
                  0.0f, c.data(), n);
    });
    std::vector<float> got(n * n);
    convert_to_f32(DType::BFloat16, rr.outputs.at(0).data.data(), got.data(), got.size());
    double max_rel = 0;
    for (int64_t i = 0; i < n * n; ++i)
      max_rel = std::max(max_rel, std::fabs(got[i] - c[i]) / (std::fabs(c[i]) + 1.0));
    const std::string setup =
        "a=np.random.rand(1024,1024).astype(np.float32); b=np.random.rand(1024,1024).astype(np.float32)";
    Stats np1, npd;
    bool have1 = python_stats(numpy_snippet(setup, "c=a.T@b", exec_reps * 3),
                              "OPENBLAS_NUM_THREADS=1", &np1);
    np1.n = npd.n = exec_reps * 3;
    bool haved = python_stats(numpy_snippet(setup, "c=a.T@b", exec_reps * 3), "", &npd);
    row("compile (toolchain::compile)", comp);
    row("simulate (machine::execute)", sim);
    row("cblas_sgemm fp32, 1 thread, in-process", blas);
    if (have1) row("numpy a.T@b fp32, OPENBLAS_NUM_THREADS=1", np1);
    if (haved) row("numpy a.T@b fp32, default threads", npd);
    if (have1) ratio("ratio simulate / numpy (1 thread)", sim, np1, 2);
    if (haved) ratio("ratio simulate / numpy (default threads)", sim, npd, 2);
    ratio("ratio simulate / cblas_sgemm", sim, blas, 2);
    std::printf("  max |sim - sgemm| / (|sgemm| + 1) = %.3g (bf16 output rounding)\n\n", max_rel);
  }

  if (only.empty() || only == "add") {
    const int64_t rows = 8192, cols = 512;
    std::printf("(c) add 2^22 fp32 (perf/kernels/add_4m.py, [128, 512] tiles)\n");
    const std::string rel = "perf/kernels/add_4m.py";
    front::TraceOptions o = options_for(rel);
    Stats comp = time_reps(std::max(5, compile_reps / 10), [&] { compile_or_die(rel, o); });
    auto kernel = compile_or_die(rel, o);
    std::vector<float> x(rows * cols), y(rows * cols), z;
    for (auto& v : x) v = u(rng);
    for (auto& v : y) v = u(rng);
    std::vector<HostTensor> args = {host(DType::Float32, {rows, cols}, x),
                                    host(DType::Float32, {rows, cols}, y)};
    machine::RunResult rr, re;
    machine::RunOptions eager;
    eager.elide_copies = false;  // the pre-elision behaviour: every DMA copies at once
    auto [sim, sim_eager] = time_interleaved(
        exec_reps * 3, [&] { rr = machine::execute(*kernel, args); },
        [&] { re = machine::execute(*kernel, args, eager); });
    Stats loop = time_reps(exec_reps * 3, [&] {
      std::vector<float> out(rows * cols);  // numpy allocates its result too
      for (int64_t i = 0; i < rows * cols; ++i) out[i] = x[i] + y[i];
      z.swap(out);
    });
    bool same = rr.outputs.at(0).data.size() == z.size() * 4 &&
                std::memcmp(rr.outputs[0].data.data(), z.data(), z.size() * 4) == 0;
    Stats np;
    bool have = python_stats(
        numpy_snippet("a=np.random.rand(8192,512).astype(np.float32); "
                      "b=np.random.rand(8192,512).astype(np.float32)",
                      "c=a+b", exec_reps * 6),
        "", &np);
    np.n = exec_reps * 6;
    row("compile (toolchain::compile)", comp);
    row("simulate (machine::execute)", sim);
    row("simulate, copy elision off", sim_eager);
    row("plain C++ loop (new result vector)", loop);
    if (have) row("numpy a+b fp32", np);
    if (have) ratio("ratio simulate / numpy", sim, np, 3);
    if (have) ratio("ratio simulate (elision off) / numpy", sim_eager, np, 3);
    ratio("ratio simulate / plain loop", sim, loop, 3);
    std::printf("  simulated result bit-identical to the plain loop: %s; elision on == off: %s\n",
                same ? "yes" : "NO", rr.outputs.at(0).data == re.outputs.at(0).data ? "yes" : "NO");
  }

  if (only.empty() || only == "isolation") {
    // What running untrusted kernels in a child process costs (docs/reliability.md): the
    // same compile / compile+simulate in this process and isolated, interleaved.
    std::printf("\n(d) isolation overhead: toolchain::compile / toolchain::run in-process vs in a child\n");
    toolchain::Isolation off;
    off.enabled = false;
    for (const char* rel : {"docs/examples/01_elementwise_add.py", "docs/examples/10_attention_block.py"}) {
      front::TraceOptions o = options_for(rel);
      auto f = load_source_file(src_path(rel));
      auto [inproc, isolated] = time_interleaved(
          compile_reps, [&] { if (!toolchain::compile(f, o, off).ok()) std::abort(); },
          [&] { if (!toolchain::compile(f, o, toolchain::Isolation{}).ok()) std::abort(); });
      std::printf("  %s\n", rel);
      row("  compile, in-process", inproc);
      row("  compile, isolated", isolated);
      ratio("  ratio isolated / in-process", isolated, inproc, 0);
    }
    const int64_t rows = 8192, cols = 512;
    std::vector<float> x(rows * cols), y(rows * cols);
    for (auto& v : x) v = u(rng);
    for (auto& v : y) v = u(rng);
    std::vector<HostTensor> args = {host(DType::Float32, {rows, cols}, x), host(DType::Float32, {rows, cols}, y)};
    auto f = load_source_file(src_path("perf/kernels/add_4m.py"));
    toolchain::RunSettings in_settings, iso_settings;
    in_settings.isolation = off;
    toolchain::RunOutcome a, b;
    auto [inproc, isolated] = time_interleaved(
        exec_reps * 3, [&] { a = toolchain::run(f, args, in_settings); },
        [&] { b = toolchain::run(f, args, iso_settings); });
    std::printf("  perf/kernels/add_4m.py (2^22 fp32, 16 MiB result over the pipe)\n");
    row("  compile + simulate, in-process", inproc);
    row("  compile + simulate, isolated", isolated);
    ratio("  ratio isolated / in-process", isolated, inproc, 0);
    std::printf("  isolated result identical: %s\n",
                a.outputs.size() == 1 && b.outputs.size() == 1 && a.outputs[0].data == b.outputs[0].data ? "yes" : "NO");
  }
  return 0;
}
