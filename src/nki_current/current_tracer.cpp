#include "nki_current/current_tracer.h"

#include "base/diag_codes.h"
#include "nki/api_common.h"
#include "nki_current/api_versions.h"

namespace nki::current {

void current_error(const std::string& code, const std::string& message, const std::string& hint) {
  front::nki_error(code, message, hint);
}

namespace {

// `nki` (nki/api/nki/__init__.py at HEAD): jit, simulate and the submodules.
std::shared_ptr<py::ModuleObj> make_nki_module(CurrentTracer& t) {
  auto m = std::make_shared<py::ModuleObj>("nki");
  // nki.jit(fn=None, **kwargs): the 2.24 decorator makes the same KernelObj (kernel[lnc] is its
  // launch grid: nl.program_id(0) in {0, 1} for LNC 2).
  m->set("jit", t.legacy_nki()->find("jit"));
  m->set("simulate", front::unsupported_api("nki.simulate", "a host-side launcher; use `nkiagent run` or the "
                                                            "Python drop-in's nki.simulate (docs/nki-current.md)"));
  for (const char* n : {"baremetal", "benchmark", "profile", "simulate_kernel"})
    m->set(n, front::unsupported_api(std::string("nki.") + n,
                                     "not available in the current NKI dialect (removed in NKI 0.2); use nki.jit "
                                     "and nki.simulate"));
  m->set("tensor", t.legacy_nki()->find("tensor"));
  m->set("dtype", t.legacy_numpy()->find("dtype"));
  return m;
}

std::shared_ptr<py::ModuleObj> make_typing_module(CurrentTracer& t) {
  auto m = std::make_shared<py::ModuleObj>("nki.typing");
  m->set("tensor", t.legacy_typing()->find("tensor"));
  m->set("mutable_tensor", t.legacy_typing()->find("mutable_tensor"));
  return m;
}

// A module of the current dialect whose names absent in the chosen NKI version (api_versions.def)
// fail at the attribute access (`nisa.topk` under --nki 0.5), so constants fail as loudly as
// functions; `from ... import name` gets a stub that fails when called.
struct VersionedModule : py::ModuleObj {
  explicit VersionedModule(std::string n) : py::ModuleObj(std::move(n)) {}
  int minor = kLastMinor;
  std::vector<std::pair<std::string, const ApiVersion*>> absent;
  const ApiVersion* gated(const std::string& attr) const {
    for (const auto& [k, row] : absent)
      if (k == attr) return row;
    return nullptr;
  }
  Ref getattr(py::Interp& in, const std::string& attr) override {
    if (const ApiVersion* row = gated(attr))
      current_error(diag::Code::api_not_in_version, absent_message(*row, minor), absent_hint(*row, minor));
    return py::ModuleObj::getattr(in, attr);
  }
};

// Moves the names of `built` into a VersionedModule for `minor`; `prefix` is the table's module
// prefix ("nl.", "nisa.", "nki.").
std::shared_ptr<py::ModuleObj> gate_module(std::shared_ptr<py::ModuleObj> built, const std::string& prefix, int minor) {
  auto m = std::make_shared<VersionedModule>(built->name);
  m->minor = minor;
  m->attrs = std::move(built->attrs);
  built->attrs.clear();
  for (const ApiVersion& row : api_versions()) {
    if (row.kind == "argument" || row.kind == "module" || row.api.rfind(prefix, 0) != 0) continue;
    std::string name = row.api.substr(prefix.size());
    if (name.find('.') != std::string::npos || row.in(minor)) continue;
    // nl.load / nl.store under 0.2 keep their removed_api stubs (api_language.cpp), whose hint
    // is the destination-passing rewrite.
    if (prefix == "nl." && (name == "load" || name == "store")) continue;
    const ApiVersion* r = &row;
    auto fail = [r, minor](py::Interp&, py::CallArgs&) -> Ref {
      current_error(diag::Code::api_not_in_version, absent_message(*r, minor), absent_hint(*r, minor));
    };
    if (auto* op = dynamic_cast<front::OpFnObj*>(m->find(name).get())) {
      // An operator name (nl.exp, nl.copy): NKI 0.2 already takes it as an ISA op value
      // (`nisa.activation(dst, op=nl.exp, data=x)`); only calling it as the 0.3+ nl function fails.
      auto gated_op = std::make_shared<front::OpFnObj>(row.api, fail);
      gated_op->alu = op->alu;
      gated_op->act = op->act;
      m->set(name, gated_op);
      continue;
    }
    m->absent.emplace_back(name, &row);
    m->set(name, std::make_shared<py::BuiltinFn>(row.api, fail));
  }
  return m;
}

}  // namespace

CurrentTracer::CurrentTracer(SourceFilePtr file, const front::TraceOptions& opts, std::string version)
    : front::Tracer(std::move(file), opts), version_(std::move(version)) {
  int minor = std::stoi(version_.substr(2));
  nki_ = gate_module(make_nki_module(*this), "nki.", minor);
  nl_ = gate_module(make_language_module(*this), "nl.", minor);
  nisa_ = gate_module(make_isa_module(*this), "nisa.", minor);
  nt_ = make_typing_module(*this);
  constants_ = make_isa_constants_module(*this);
  nisa_->set("constants", constants_);
  nki_->set("language", nl_);
  nki_->set("isa", nisa_);
  nki_->set("typing", nt_);
}

bool CurrentTracer::at_least(int minor) const {
  // version_ is "0.N" (parse_dialect validated it).
  return version_.size() >= 3 && std::stoi(version_.substr(2)) >= minor;
}

Ref CurrentTracer::import_module(const std::string& dotted) {
  if (dotted == "nki") return nki_;
  if (dotted == "nki.language") return nl_;
  if (dotted == "nki.isa") return nisa_;
  if (dotted == "nki.typing") {
    if (const ApiVersion* row = find_api_version("nki.typing"); row && !at_least(row->first))
      current_error(diag::Code::api_not_in_version, absent_message(*row, std::stoi(version_.substr(2))),
                    absent_hint(*row, std::stoi(version_.substr(2))));
    return nt_;
  }
  if (dotted == "nki.isa.constants") return constants_;
  if (dotted == "nki.collectives")
    return std::make_shared<py::PlaceholderObj>("nki.collectives");  // any use fails loudly
  // nki-library imports neuronxcc.nki.typing for annotations only (shared/docs/nki-spec.md §3.4).
  if (dotted == "neuronxcc.nki.typing") return legacy_typing();
  if (dotted == "neuronxcc" || dotted.rfind("neuronxcc.", 0) == 0) {
    // NKI 0.4 (SDK 2.30) release notes: using neuronxcc.nki.* inside kernels is a compile error.
    current_error(diag::Code::legacy_namespace_in_current_dialect,
                  "'" + dotted + "' is the legacy (SDK 2.24) NKI namespace; this file is compiled as NKI " + version_,
                  "write `import nki`, `import nki.language as nl`, `import nki.isa as nisa` (and port the kernel: "
                  "destination-passing ISA calls, no masks), or check it with --nki 2.24");
  }
  return front::Tracer::import_module(dotted);
}

Ref CurrentTracer::adapt_for_iterable(const py::For&, const Ref&) { return nullptr; }

namespace {

// Calls f(flat index) for every element of `view` inside its tensor (constant parts of the
// offsets: the unrolled dialect has no loop atoms; program-id terms are the same for every
// element of one instance, so they do not change which elements a view shares with another).
template <typename F>
void for_each_element(const ir::Access& view, const std::vector<int64_t>& tshape, F&& f) {
  size_t rank = view.shape.size();
  int64_t n = ir::element_count(view.shape);
  std::vector<int64_t> idx(rank, 0);
  for (int64_t e = 0; e < n; ++e) {
    int64_t flat = 0;
    bool inside = true;
    for (size_t d = 0; d < tshape.size(); ++d) {
      int64_t v = view.offset[d].constant;
      for (size_t k = 0; k < rank; ++k) v += view.coef[d][k] * idx[k];
      if (v < 0 || v >= tshape[d]) inside = false;
      flat = flat * tshape[d] + v;
    }
    if (inside) f(flat);
    for (size_t k = rank; k-- > 0;) {
      if (++idx[k] < view.shape[k]) break;
      idx[k] = 0;
    }
  }
}

}  // namespace

CurrentTracer::Written CurrentTracer::psum_written(const ir::Access& view) {
  const ir::TensorDecl& d = kernel().tensors[view.tensor];
  auto it = psum_written_.find(view.tensor);
  if (it == psum_written_.end()) return Written::None;
  size_t yes = 0, total = 0;
  for_each_element(view, d.shape, [&](int64_t flat) {
    ++total;
    if (it->second[static_cast<size_t>(flat)]) ++yes;
  });
  if (yes == 0) return Written::None;
  return yes == total ? Written::All : Written::Some;
}

void CurrentTracer::mark_written(const ir::Access& view) {
  const ir::TensorDecl& d = kernel().tensors[view.tensor];
  if (d.buffer != ir::Buffer::Psum) return;
  auto& bits = psum_written_[view.tensor];
  if (bits.empty()) bits.assign(static_cast<size_t>(ir::element_count(d.shape)), false);
  for_each_element(view, d.shape, [&](int64_t flat) { bits[static_cast<size_t>(flat)] = true; });
}

}  // namespace nki::current
