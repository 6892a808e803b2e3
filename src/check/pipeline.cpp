#include "check/pipeline.h"

#include "check/bounds.h"
#include "check/capacity.h"

namespace nki::check {

namespace {

bool found_out_of_bounds(const Findings& so_far) {
  const PassReport* bounds = so_far.report(Pass::Bounds);
  return bounds && !bounds->errors.empty();
}

PassReport skip(Pass p, std::string why) {
  PassReport r;
  r.pass = p;
  r.skipped = std::move(why);
  return r;
}

// ------------------------------------------------------------------ the passes

PassReport bounds_pass(const ir::Kernel& k, const CheckInputs& in, const Findings&) {
  PassReport r;
  r.pass = Pass::Bounds;
  r.errors = static_bounds_errors(k, in.max_errors);
  return r;
}

PassReport outputs_pass(const ir::Kernel& k, const CheckInputs& in, const Findings&) {
  PassReport r;
  r.pass = Pass::Outputs;
  r.errors = output_errors(k, in.writes);
  return r;
}

PassReport capacity_pass(const ir::Kernel& k, const CheckInputs& in, const Findings& so_far) {
  if (in.direct_allocation) return skip(Pass::Capacity, "the kernel places its tiles itself (direct allocation)");
  if (found_out_of_bounds(so_far)) return skip(Pass::Capacity, "an access is out of bounds");
  PassReport r;
  r.pass = Pass::Capacity;
  if (std::optional<Diagnostic> e = capacity_error(k, in.target, &r.warnings))
    r.errors.push_back(std::move(*e));
  return r;
}

PassReport direct_alloc_pass(const ir::Kernel& k, const CheckInputs& in, const Findings& so_far) {
  if (!in.direct_allocation) return skip(Pass::DirectAlloc, "the kernel uses no direct allocation");
  if (found_out_of_bounds(so_far)) return skip(Pass::DirectAlloc, "an access is out of bounds");
  PassReport r;
  r.pass = Pass::DirectAlloc;
  if (std::optional<Diagnostic> e = direct_alloc_error(k, in.direct_tensors, in.folded_results, r.warnings))
    r.errors.push_back(std::move(*e));
  return r;
}

using PassFn = PassReport (*)(const ir::Kernel&, const CheckInputs&, const Findings&);

struct PipelineStep {
  PassInfo info;
  PassFn run;
};

const std::vector<PipelineStep>& pipeline() {
  static const std::vector<PipelineStep> steps = {
      {{Pass::Bounds, "bounds", "accesses provably outside their tensor"},
       bounds_pass},
      {{Pass::Outputs, "outputs", "outputs never written, mutable parameters not returned"}, outputs_pass},
      {{Pass::Capacity, "capacity", "SBUF/PSUM capacity (kernels without direct allocation)"},
       capacity_pass},
      {{Pass::DirectAlloc, "direct-alloc", "the direct-allocation rules (nki.compiler kernels)"},
       direct_alloc_pass},
  };
  return steps;
}

}  // namespace

const std::vector<PassInfo>& passes() {
  static const std::vector<PassInfo> infos = [] {
    std::vector<PassInfo> v;
    for (const PipelineStep& s : pipeline()) v.push_back(s.info);
    return v;
  }();
  return infos;
}

const char* pass_name(Pass p) {
  for (const PassInfo& i : passes())
    if (i.pass == p) return i.name;
  return "?";
}

std::optional<Pass> pass_named(std::string_view name) {
  for (const PassInfo& i : passes())
    if (name == i.name) return i.pass;
  return std::nullopt;
}

std::vector<Diagnostic> Findings::errors() const {
  std::vector<Diagnostic> out;
  for (const PassReport& r : passes) out.insert(out.end(), r.errors.begin(), r.errors.end());
  return out;
}

std::vector<Diagnostic> Findings::warnings() const {
  std::vector<Diagnostic> out;
  for (const PassReport& r : passes) out.insert(out.end(), r.warnings.begin(), r.warnings.end());
  return out;
}

const PassReport* Findings::report(Pass p) const {
  for (const PassReport& r : passes)
    if (r.pass == p) return &r;
  return nullptr;
}

Findings run_checks(const ir::Kernel& k, const CheckInputs& in, Pass last) {
  Findings f;
  for (const PipelineStep& step : pipeline()) {
    f.passes.push_back(step.run(k, in, f));
    if (step.info.pass == last) break;
  }
  return f;
}

}  // namespace nki::check
