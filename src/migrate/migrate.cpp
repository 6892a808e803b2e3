#include "migrate/migrate.h"

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

#include "base/dtype_convert.h"
#include "ir/walk.h"
#include "task/golden_cache.h"
#include "toolchain/toolchain.h"

namespace nki::migrate {

TileFacts trace_facts(const SourceFilePtr& legacy, const front::TraceOptions& opts, std::vector<Diagnostic>& diagnostics) {
  front::TraceOptions o = opts;
  o.dialect = "2.24";
  toolchain::Isolation iso;  // kernels are untrusted input: trace in a child first
  toolchain::CompileResult r = toolchain::compile(legacy, o, iso);
  diagnostics = r.diagnostics;
  TileFacts facts;
  if (!r.kernel) return facts;
  const ir::Kernel& k = *r.kernel;
  ir::WalkCallbacks cb;
  cb.instr = [&](const ir::Instr& in, int) {
    if (in.dst.tensor < 0) return;
    // Custom instructions (max8, nc_find_index8, bn_stats, bn_aggr) carry their bare name.
    std::string api = in.name.find('.') == std::string::npos ? "nisa." + in.name : in.name;
    if (api.rfind("nisa.", 0) != 0) return;
    bool reads_psum = false;
    for (const ir::Operand& o : in.srcs)
      if (!o.is_imm)
        for (const ir::TensorDecl& t : k.tensors)
          if (t.id == o.access.tensor && t.buffer == ir::Buffer::Psum) reads_psum = true;
    for (const ir::TensorDecl& t : k.tensors)
      if (t.id == in.dst.tensor) {
        facts[{in.loc.line, api}].push_back({t.shape, t.dtype, t.buffer, reads_psum});
        break;
      }
  };
  ir::walk(k, cb);
  return facts;
}

namespace {

float element_as_float(const HostTensor& t, int64_t i) {
  const uint8_t* p = t.data.data() + static_cast<size_t>(i) * dtype_size(t.dtype);
  switch (t.dtype) {
    case DType::Float32: { float v; std::memcpy(&v, p, 4); return v; }
    case DType::Float16: { uint16_t b; std::memcpy(&b, p, 2); return fp16_bits_to_f32(b); }
    case DType::BFloat16: { uint16_t b; std::memcpy(&b, p, 2); return bf16_bits_to_f32(b); }
    case DType::Int32: { int32_t v; std::memcpy(&v, p, 4); return static_cast<float>(v); }
    case DType::UInt32: { uint32_t v; std::memcpy(&v, p, 4); return static_cast<float>(v); }
    case DType::Int16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case DType::UInt16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case DType::Int8: { int8_t v; std::memcpy(&v, p, 1); return v; }
    default: return static_cast<float>(p[0]);
  }
}

HostTensor random_tensor(const front::ArgSpec& a, std::mt19937& rng) {
  HostTensor t;
  t.dtype = a.dtype;
  t.shape = a.shape;
  size_t w = dtype_size(a.dtype);
  t.data.assign(static_cast<size_t>(t.element_count()) * w, 0);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> ints(0, 7);
  for (int64_t i = 0; i < t.element_count(); ++i) {
    uint8_t* p = t.data.data() + static_cast<size_t>(i) * w;
    float v = normal(rng);
    switch (a.dtype) {
      case DType::Float32: std::memcpy(p, &v, 4); break;
      case DType::Float16: { uint16_t b = f32_to_fp16_bits(v); std::memcpy(p, &b, 2); break; }
      case DType::BFloat16: { uint16_t b = f32_to_bf16_bits(v); std::memcpy(p, &b, 2); break; }
      case DType::Int32: { int32_t x = ints(rng); std::memcpy(p, &x, 4); break; }
      default: p[0] = static_cast<uint8_t>(ints(rng)); break;
    }
  }
  return t;
}

std::vector<HostTensor> judged_outputs(const toolchain::RunOutcome& r, const std::vector<HostTensor>& inputs) {
  if (!r.outputs.empty()) return r.outputs;
  std::vector<HostTensor> changed;  // pass-by-reference kernels: every argument written
  for (size_t i = 0; i < r.args_after.size() && i < inputs.size(); ++i)
    if (r.args_after[i].data != inputs[i].data) changed.push_back(r.args_after[i]);
  return changed;
}

}  // namespace

bool MigrationReport::equal() const {
  if (!legacy_ran || !current_ran || outputs.empty()) return false;
  for (const OutputComparison& o : outputs)
    if (!o.bitwise_equal) return false;
  return true;
}

bool MigrationReport::close() const {
  if (verify) return verify->status == VerifyStatus::Pass;
  return equal();
}

MigrationReport migrate_file(const SourceFilePtr& legacy, const MigrationOptions& opts) {
  MigrationReport rep;
  rep.target = opts.target;
  std::vector<HostTensor> inputs;
  front::TraceOptions trace = opts.trace;
  if (opts.task) {
    GoldenTrial g = load_golden(*opts.task, 0);
    inputs = g.args;
    rep.inputs_from = "task " + opts.task->id + " trial 0";
    trace.args.clear();
    for (const HostTensor& t : inputs) trace.args.push_back({t.shape, t.dtype});
  } else {
    std::mt19937 rng(0);
    for (const front::ArgSpec& a : trace.args) inputs.push_back(random_tensor(a, rng));
    // Tensors named with --arg NAME=SHAPE:DTYPE are kernel arguments after the positional ones.
    for (const front::NamedArg& a : trace.named_args)
      if (a.tensor) inputs.push_back(random_tensor(*a.tensor, rng));
    rep.inputs_from = "random normal arrays (seed 0)";
  }
  TileFacts facts = trace_facts(legacy, trace, rep.legacy_diagnostics);
  rep.rewrite = rewrite_to_current(legacy->text(), facts, legacy->path());
  if (!opts.run_check) return rep;

  toolchain::RunSettings s;
  s.trace = trace;
  s.trace.dialect = "2.24";
  toolchain::RunOutcome before = toolchain::run(legacy, inputs, s);
  rep.legacy_ran = before.status == RunStatus::Ok;
  for (const Diagnostic& d : before.diagnostics)
    if (d.severity == Severity::Error) rep.legacy_diagnostics.push_back(d);

  auto migrated = std::make_shared<SourceFile>(legacy->path(), rep.rewrite.text);
  s.trace.dialect = opts.target;
  toolchain::RunOutcome after = toolchain::run(migrated, inputs, s);
  rep.current_ran = after.status == RunStatus::Ok;
  rep.current_diagnostics = after.diagnostics;

  if (rep.legacy_ran && rep.current_ran) {
    std::vector<HostTensor> a = judged_outputs(before, inputs), b = judged_outputs(after, inputs);
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      OutputComparison c;
      c.index = i;
      if (i < a.size() && i < b.size() && a[i].shape == b[i].shape) {
        c.same_shape = true;
        c.bitwise_equal = a[i].dtype == b[i].dtype && a[i].data == b[i].data;
        for (int64_t e = 0; e < a[i].element_count(); ++e) {
          double d = std::fabs(double(element_as_float(a[i], e)) - double(element_as_float(b[i], e)));
          if (std::isnan(d)) d = INFINITY;
          c.max_abs_diff = std::max(c.max_abs_diff, d);
        }
      }
      rep.outputs.push_back(c);
    }
  }
  if (opts.task && rep.current_ran) {
    toolchain::RunSettings vs;
    vs.trace.target = trace.target;
    vs.trace.dialect = opts.target;
    VerifyOptions vo;
    rep.verify = verify_task(*opts.task, vo, toolchain::make_runner(migrated, vs));
  }
  return rep;
}

namespace {

std::string loc(const std::string& path, const Finding& f) {
  return path + ":" + std::to_string(f.line) + ":" + std::to_string(f.col);
}

std::string verdict(const MigrationReport& r) {
  if (!r.rewrite.complete()) return "incomplete";
  if (!r.current_ran) return "does_not_run";
  if (r.equal()) return "bitwise_equal";
  if (r.verify) return r.verify->status == VerifyStatus::Pass ? "verified" : "verify_failed";
  return "differs";
}

}  // namespace

std::string render_text(const MigrationReport& r, const std::string& path, const std::string& out_path) {
  std::ostringstream o;
  o << "migrate " << path << " -> NKI " << r.target << (out_path.empty() ? "" : " (" + out_path + ")") << "\n";
  std::map<std::string, int> counts;
  for (const Finding& f : r.rewrite.applied) counts[f.rule]++;
  o << "rewritten:";
  if (counts.empty()) o << " nothing";
  for (auto& [rule, n] : counts) o << " " << rule << "=" << n;
  o << "\n";
  for (const Finding& f : r.rewrite.refused)
    o << loc(path, f) << ": not rewritten [" << f.rule << "]: " << f.message << "\n";
  for (const Diagnostic& d : r.current_diagnostics)
    if (d.severity == Severity::Error) o << "migrated kernel: " << nki::render_text(d) << "\n";
  if (!r.legacy_ran && !r.legacy_diagnostics.empty())
    o << "original kernel: " << nki::render_text(r.legacy_diagnostics.front()) << "\n";
  for (const OutputComparison& c : r.outputs)
    o << "output " << c.index << ": "
      << (!c.same_shape ? std::string("shape differs")
                        : c.bitwise_equal ? std::string("bitwise equal")
                                          : "differs, max abs diff " + std::to_string(c.max_abs_diff))
      << "\n";
  if (r.verify) o << "verify (migrated, task " << r.verify->task_id << "): " << verify_status_name(r.verify->status) << "\n";
  o << "inputs: " << r.inputs_from << "\n";
  o << "result: " << verdict(r) << "\n";
  return o.str();
}

std::string render_json(const MigrationReport& r, const std::string& path, const std::string& out_path) {
  std::ostringstream o;
  auto findings = [&](const std::vector<Finding>& v) {
    o << "[";
    for (size_t i = 0; i < v.size(); ++i)
      o << (i ? ", " : "") << "{\"line\": " << v[i].line << ", \"col\": " << v[i].col << ", \"rule\": \""
        << json_escape(v[i].rule) << "\", \"message\": \"" << json_escape(v[i].message) << "\"}";
    o << "]";
  };
  o << "{\"file\": \"" << json_escape(path) << "\", \"out\": \"" << json_escape(out_path) << "\", \"target\": \""
    << r.target << "\", \"result\": \"" << verdict(r) << "\", \"ok\": " << (r.ok() ? "true" : "false")
    << ", \"applied\": ";
  findings(r.rewrite.applied);
  o << ", \"refused\": ";
  findings(r.rewrite.refused);
  o << ", \"outputs\": [";
  for (size_t i = 0; i < r.outputs.size(); ++i)
    o << (i ? ", " : "") << "{\"index\": " << r.outputs[i].index << ", \"same_shape\": "
      << (r.outputs[i].same_shape ? "true" : "false") << ", \"bitwise_equal\": "
      << (r.outputs[i].bitwise_equal ? "true" : "false") << ", \"max_abs_diff\": "
      << (std::isfinite(r.outputs[i].max_abs_diff) ? std::to_string(r.outputs[i].max_abs_diff) : "null") << "}";
  o << "], \"verify\": " << (r.verify ? "\"" + std::string(verify_status_name(r.verify->status)) + "\"" : "null")
    << ", \"inputs\": \"" << json_escape(r.inputs_from) << "\", \"diagnostics\": "
    << nki::render_json(r.current_diagnostics, r.current_ran) << "}";
  return o.str();
}

}  // namespace nki::migrate
