#include "nki_current/dialect.h"

#include "base/diag_codes.h"
#include "base/diagnostic.h"
#include "lang/parser.h"
#include "nki_current/current_tracer.h"
#include "nki_current/migration.h"

namespace nki::current {

std::optional<DialectChoice> parse_dialect(const std::string& text) {
  if (text == "2.24") return DialectChoice{Dialect::Legacy, "2.24"};
  // NKI 0.2 (SDK 2.27/2.28) .. 0.6 (SDK 2.32), nki-spec §1.1.
  for (const char* v : {"0.2", "0.3", "0.4", "0.5", "0.6"})
    if (text == v) return DialectChoice{Dialect::Current, v};
  return std::nullopt;
}

namespace {

bool is_current_name(const std::string& m) { return m == "nki" || m.rfind("nki.", 0) == 0; }
bool is_legacy_name(const std::string& m) { return m == "neuronxcc" || m.rfind("neuronxcc.", 0) == 0; }

// The first top-level import of either namespace, for diagnostics at the import.
struct Imports {
  const py::Stmt* current = nullptr;
  const py::Stmt* legacy = nullptr;
};

Imports scan_imports(const py::Module& module) {
  Imports out;
  for (const auto& s : module.body) {
    auto note = [&](const std::string& name) {
      if (is_current_name(name) && !out.current) out.current = s.get();
      // nki-library imports neuronxcc.nki.typing for annotations in current-dialect files.
      if (is_legacy_name(name) && name != "neuronxcc.nki.typing" && !out.legacy) out.legacy = s.get();
    };
    if (auto* im = py::as<py::Import>(s.get())) {
      for (const py::alias& a : im->names) note(a.name);
    } else if (auto* from = py::as<py::ImportFrom>(s.get()); from && from->level == 0) {
      if (from->module == "neuronxcc") {
        for (const py::alias& a : from->names) note("neuronxcc." + a.name);
      } else {
        note(from->module);
      }
    }
  }
  return out;
}

}  // namespace

DialectChoice detect_dialect(const py::Module& module) {
  Imports im = scan_imports(module);
  if (im.current) return DialectChoice{Dialect::Current, "0.6"};
  return DialectChoice{Dialect::Legacy, "2.24"};
}

front::TraceResult trace_any(const SourceFilePtr& file, const front::TraceOptions& opts) {
  front::TraceResult res;
  py::Module module;
  try {
    module = py::parse_module(file);
  } catch (DiagnosticError& e) {
    res.diagnostics.push_back(e.diagnostic());
    return res;
  }
  DialectChoice choice = detect_dialect(module);
  if (!opts.dialect.empty()) {
    std::optional<DialectChoice> forced = parse_dialect(opts.dialect);
    if (!forced) throw IoError("unknown NKI version '" + opts.dialect + "' (expected one of 2.24, 0.2, 0.3, 0.4, 0.5, 0.6)");
    choice = *forced;
  }
  if (choice.dialect == Dialect::Legacy) {
    Imports im = scan_imports(module);
    if (im.current && !im.legacy) {
      // The 2.24 tracer would bind `nki` to a placeholder and fail at the first use.
      res.diagnostics.push_back(make_diagnostic(
          Severity::Error, diag::Code::current_namespace_in_legacy_dialect,
          "this file imports the current NKI namespace (`nki`, NKI 0.2+) but is compiled as the legacy 2.24 dialect",
          file, im.current->span.begin,
          "drop --nki 2.24 (the dialect is detected from the imports), or port the kernel to neuronxcc.nki: "
          "`import neuronxcc.nki as nki`, functional ISA calls (`out = nisa.op(inputs...)`) and nl.load/nl.store"));
      return res;
    }
    front::Tracer tracer(file, opts);
    front::TraceResult out = front::trace_with(tracer, file, module, opts);
    add_legacy_migration_diagnostics(module, out);
    return out;
  }
  if (Imports im = scan_imports(module); im.legacy) {
    // NKI 0.4 (SDK 2.30) release notes: neuronxcc.nki.* inside a kernel is a compile error; the
    // 2.27-2.29 coexistence of both namespaces in one kernel is not modelled here.
    res.diagnostics.push_back(make_diagnostic(
        Severity::Error, diag::Code::legacy_namespace_in_current_dialect,
        "this file imports the legacy NKI namespace (neuronxcc.nki, SDK 2.24) but is compiled as NKI " + choice.version +
            (choice.version >= "0.4" ? " (an error since NKI 0.4)" : " (mixing both namespaces is not supported here)"),
        file, im.legacy->span.begin,
        "write `import nki`, `import nki.language as nl`, `import nki.isa as nisa` and port the kernel "
        "(destination-passing ISA calls, no masks), or check it with --nki 2.24"));
    return res;
  }
  CurrentTracer tracer(file, opts, choice.version);
  front::TraceResult out = front::trace_with(tracer, file, module, opts);
  add_current_migration_hints(module, choice.version, out);
  return out;
}

}  // namespace nki::current
