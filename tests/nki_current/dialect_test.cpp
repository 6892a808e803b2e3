// The dialect dispatch (nki_current/dialect.h) and the IR the current-dialect front end emits:
// destination-passing calls retarget the builder's instruction into dst (no extra copy), loops
// unroll, and nc_matmul(accumulate=None) overwrites first and accumulates after.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "lang/parser.h"
#include "nki_current/dialect.h"

using namespace nki;
using namespace nki::current;

namespace {

front::TraceResult trace(const std::string& src, std::vector<front::ArgSpec> args, std::string dialect = "") {
  front::TraceOptions opts;
  opts.args = std::move(args);
  opts.dialect = std::move(dialect);
  return trace_any(std::make_shared<SourceFile>("k.py", src), opts);
}

std::string first_error(const front::TraceResult& r) {
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) return d.code;
  return {};
}

// Instructions at the top level of the kernel body (the current dialect has no IR loops).
std::vector<const ir::Instr*> instrs(const ir::Kernel& k) {
  std::vector<const ir::Instr*> out;
  for (const ir::Stmt& s : k.body)
    if (auto* in = std::get_if<ir::Instr>(&s.node)) out.push_back(in);
  return out;
}

const char* kHeader = "import nki\nimport nki.language as nl\nimport nki.isa as nisa\n";

}  // namespace

TEST(Dialect, DetectedFromImports) {
  auto detect = [](const std::string& src) {
    return detect_dialect(py::parse_module_text(src)).dialect;
  };
  EXPECT_EQ(detect("import nki\n"), Dialect::Current);
  EXPECT_EQ(detect("import nki.language as nl\n"), Dialect::Current);
  EXPECT_EQ(detect("from nki import isa\n"), Dialect::Current);
  EXPECT_EQ(detect("import neuronxcc.nki as nki\n"), Dialect::Legacy);
  EXPECT_EQ(detect("from neuronxcc import nki\n"), Dialect::Legacy);
  EXPECT_EQ(detect("import numpy as np\n"), Dialect::Legacy);
  // nki-library: current code that takes its annotations from neuronxcc.nki.typing.
  EXPECT_EQ(detect("import neuronxcc.nki.typing as nt\nimport nki\n"), Dialect::Current);
}

TEST(Dialect, ParsesVersions) {
  EXPECT_EQ(parse_dialect("2.24")->dialect, Dialect::Legacy);
  EXPECT_EQ(parse_dialect("0.6")->dialect, Dialect::Current);
  EXPECT_EQ(parse_dialect("0.2")->version, "0.2");
  EXPECT_FALSE(parse_dialect("0.7"));
  EXPECT_FALSE(parse_dialect("2.25"));
}

TEST(CurrentFrontEnd, DestinationPassingRetargetsWithoutCopies) {
  std::string src = std::string(kHeader) +
                    "@nki.jit\n"
                    "def k(a):\n"
                    "    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n"
                    "    for i in nl.affine_range(2):\n"
                    "        t = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)\n"
                    "        nisa.dma_copy(dst=t, src=a[i * 128:(i + 1) * 128, :])\n"
                    "        e = nl.ndarray((128, 64), dtype=nl.bfloat16, buffer=nl.sbuf)\n"
                    "        nisa.activation(dst=e, op=nl.exp, data=t)\n"
                    "        nisa.dma_copy(dst=out[i * 128:(i + 1) * 128, :], src=e)\n"
                    "    return out\n";
  front::TraceResult r = trace(src, {front::ArgSpec{{256, 64}, DType::Float32}});
  ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].message);
  std::vector<const ir::Instr*> in = instrs(*r.kernel);
  // Two unrolled iterations of dma, activation, dma: nothing else.
  ASSERT_EQ(in.size(), 6u);
  EXPECT_EQ(in[1]->op, ir::Opcode::Activation);
  // The activation writes straight into `e`, whose bf16 dtype is the output dtype.
  const ir::TensorDecl& dst = r.kernel->tensors[in[1]->dst.tensor];
  EXPECT_EQ(dst.dtype, DType::BFloat16);
  EXPECT_EQ(dst.name, "e");
}

TEST(CurrentFrontEnd, MatmulAccumulateNoneOverwritesThenAccumulates) {
  std::string src = std::string(kHeader) +
                    "@nki.jit\n"
                    "def k(a, b):\n"
                    "    out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)\n"
                    "    acc = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.psum)\n"
                    "    for kk in range(2):\n"
                    "        x = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)\n"
                    "        y = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)\n"
                    "        nisa.dma_copy(dst=x, src=a[kk * 128:(kk + 1) * 128, :])\n"
                    "        nisa.dma_copy(dst=y, src=b[kk * 128:(kk + 1) * 128, :])\n"
                    "        nisa.nc_matmul(acc, x, y)\n"
                    "    s = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)\n"
                    "    nisa.tensor_copy(dst=s, src=acc)\n"
                    "    nisa.dma_copy(dst=out, src=s)\n"
                    "    return out\n";
  front::TraceResult r = trace(src, {front::ArgSpec{{256, 128}, DType::Float32}, front::ArgSpec{{256, 128}, DType::Float32}});
  ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].message);
  std::vector<const ir::Instr*> mm;
  for (const ir::Instr* i : instrs(*r.kernel))
    if (i->op == ir::Opcode::Matmul) mm.push_back(i);
  ASSERT_EQ(mm.size(), 2u);
  EXPECT_FALSE(mm[0]->accumulate);
  EXPECT_TRUE(mm[1]->accumulate);
}

TEST(CurrentFrontEnd, LegacyHabitsGetMigrationCodes) {
  auto code = [](const std::string& body, std::string dialect = "") {
    std::string src = std::string(kHeader) + "@nki.jit\ndef k(a):\n" + body;
    return first_error(trace(src, {front::ArgSpec{{128, 64}, DType::Float32}}, dialect));
  };
  EXPECT_EQ(code("    t = nisa.memset((128, 64), 0.0, nl.float32)\n    return t\n"), "dst_not_a_tensor");
  EXPECT_EQ(code("    t = nisa.activation(op=nl.exp, data=a)\n    return t\n"), "missing_argument");
  EXPECT_EQ(code("    i = nl.arange(128)[:, None]\n    return a\n"), "removed_api");
  EXPECT_EQ(code("    t = nl.load(a)\n    return a\n", "0.2"), "removed_api");
  EXPECT_EQ(code("    t = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)\n"
                 "    nisa.dma_copy(dst=t, src=a, mask=None)\n    return a\n"),
            "unknown_argument");
  EXPECT_EQ(code("    return a\n", "2.24"), "current_namespace_in_legacy_dialect");
}

// api_versions.def: a name outside the chosen version fails with api_not_in_version; an operator
// name that 0.3 made an nl function is still an ISA op value in 0.2.
TEST(CurrentFrontEnd, ApiAvailabilityFollowsTheVersionTable) {
  auto diag = [](const std::string& head, const std::string& body, std::string dialect) {
    std::string src = std::string(kHeader) + head + "@nki.jit\ndef k(a):\n" + body;
    front::TraceResult r = trace(src, {front::ArgSpec{{128, 64}, DType::Float32}}, dialect);
    for (const Diagnostic& d : r.diagnostics)
      if (d.severity == Severity::Error) return d;
    return Diagnostic{};
  };
  const std::string copy_out =
      "    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n"
      "    t = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)\n"
      "    nisa.dma_copy(dst=t, src=a)\n";
  Diagnostic d = diag("", copy_out + "    nisa.topk(t, t, t, 8)\n    return out\n", "0.5");
  EXPECT_EQ(d.code, "api_not_in_version");
  EXPECT_NE(d.message.find("nisa.topk is not in NKI 0.5 (added in 0.6"), std::string::npos) << d.message;
  EXPECT_NE(d.hint.find("--nki 0.6"), std::string::npos) << d.hint;
  // 0.6 has it (still unimplemented here, so it fails as unsupported_api, not by version).
  EXPECT_EQ(diag("", copy_out + "    nisa.topk(t, t, t, 8)\n    return out\n", "0.6").code, "unsupported_api");
  // nki.typing is 0.3+ (the module is evaluated lazily: the import fails where nt is used).
  EXPECT_EQ(diag("import nki.typing as nt\n", copy_out + "    ann = nt.tensor\n    return out\n", "0.2").code,
            "api_not_in_version");
  EXPECT_EQ(diag("import nki.typing as nt\n", copy_out + "    ann = nt.tensor\n    nisa.dma_copy(dst=out, src=t)\n    return out\n",
                 "0.3").code,
            "");
  // nl.exp: an op value in 0.2, a function from 0.3.
  const std::string act = copy_out + "    e = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)\n";
  EXPECT_EQ(diag("", act + "    nisa.activation(dst=e, op=nl.exp, data=t)\n    nisa.dma_copy(dst=out, src=e)\n    return out\n",
                 "0.2").code,
            "");
  EXPECT_EQ(diag("", copy_out + "    e = nl.exp(t)\n    nisa.dma_copy(dst=out, src=e)\n    return out\n", "0.2").code,
            "api_not_in_version");
}

// A current-dialect name in a legacy kernel: the attribute error's hint names the NKI versions.
TEST(LegacyFrontEnd, CurrentOnlyNamesGetAMigrationHint) {
  std::string src =
      "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n"
      "@nki.jit\ndef k(a):\n    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n"
      "    nl.fori_loop(0, 2, None)\n    return out\n";
  front::TraceResult r = trace(src, {front::ArgSpec{{128, 64}, DType::Float32}});
  ASSERT_FALSE(r.ok());
  const Diagnostic* d = nullptr;
  for (const Diagnostic& x : r.diagnostics)
    if (x.severity == Severity::Error) d = d ? d : &x;
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->hint.find("nl.fori_loop is an API of the current NKI dialect (NKI 0.6"), std::string::npos) << d->hint;
}
