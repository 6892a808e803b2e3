#include "nki_current/migration.h"

#include <map>
#include <set>
#include <vector>

#include "base/diag_codes.h"
#include "base/diagnostic.h"
#include "nki_current/api_versions.h"

namespace nki::current {

namespace {

// Source text of a node (its span, possibly over several lines).
std::string span_text(const SourceFile& f, const SourceSpan& s) {
  if (!s.begin.valid() || !s.end.valid()) return {};
  std::string out;
  for (int line = s.begin.line; line <= s.end.line; ++line) {
    std::string_view t = f.line_text(line);
    size_t from = line == s.begin.line ? static_cast<size_t>(s.begin.col - 1) : 0;
    size_t to = line == s.end.line ? static_cast<size_t>(s.end.col - 1) : t.size();
    if (from > t.size()) from = t.size();
    if (to > t.size()) to = t.size();
    if (to > from) out += std::string(t.substr(from, to - from));
    if (line != s.end.line) out += ' ';
  }
  return out;
}

// A call that is the value of a statement (`f(...)`, `y = f(...)`, `return f(...)`): where ISA
// calls and nl.load/nl.store appear. `target` is the assigned expression, if any.
struct CallSite {
  const py::Call* call;
  const py::Expr* target;
};

void collect(const py::StmtList& body, std::vector<CallSite>& out) {
  for (const auto& s : body) {
    const py::Stmt* st = s.get();
    auto add = [&](const py::Expr* value, const py::Expr* target) {
      if (auto* c = py::as<py::Call>(value)) out.push_back({c, target});
    };
    if (auto* e = py::as<py::ExprStmt>(st)) add(e->value.get(), nullptr);
    else if (auto* a = py::as<py::Assign>(st)) add(a->value.get(), a->targets.size() == 1 ? a->targets[0].get() : nullptr);
    else if (auto* an = py::as<py::AnnAssign>(st)) add(an->value.get(), an->target.get());
    else if (auto* r = py::as<py::Return>(st)) add(r->value.get(), nullptr);
    else if (auto* f = py::as<py::FunctionDef>(st)) collect(f->body, out);
    else if (auto* fo = py::as<py::For>(st)) {
      collect(fo->body, out);
      collect(fo->orelse, out);
    } else if (auto* w = py::as<py::While>(st)) {
      collect(w->body, out);
      collect(w->orelse, out);
    } else if (auto* i = py::as<py::If>(st)) {
      collect(i->body, out);
      collect(i->orelse, out);
    } else if (auto* wi = py::as<py::With>(st)) {
      collect(wi->body, out);
    } else if (auto* t = py::as<py::Try>(st)) {
      collect(t->body, out);
      collect(t->orelse, out);
      collect(t->finalbody, out);
    }
  }
}

// Local names of the modules: alias -> dotted module ("nki.isa", "neuronxcc.nki.language", ...).
std::map<std::string, std::string> module_aliases(const py::Module& m) {
  std::map<std::string, std::string> out;
  for (const auto& s : m.body) {
    if (auto* im = py::as<py::Import>(s.get())) {
      for (const py::alias& a : im->names) {
        if (!a.asname.empty()) out[a.asname] = a.name;
        else out[a.name.substr(0, a.name.find('.'))] = a.name.substr(0, a.name.find('.'));
      }
    } else if (auto* from = py::as<py::ImportFrom>(s.get()); from && from->level == 0) {
      for (const py::alias& a : from->names) out[a.asname.empty() ? a.name : a.asname] = from->module + "." + a.name;
    }
  }
  return out;
}

// "nisa.tensor_copy" -> "nki.isa.tensor_copy" through the aliases; "" when not a dotted name.
std::string resolve(const py::Expr* func, const std::map<std::string, std::string>& aliases) {
  std::vector<std::string> parts;
  const py::Expr* e = func;
  while (auto* at = py::as<py::Attribute>(e)) {
    parts.insert(parts.begin(), at->attr);
    e = at->value.get();
  }
  auto* n = py::as<py::Name>(e);
  if (!n) return {};
  auto it = aliases.find(n->id);
  std::string out = it == aliases.end() ? n->id : it->second;
  for (const std::string& p : parts) out += "." + p;
  return out;
}

// The call's arguments as written, with `extra` first; `drop` names keywords to leave out.
std::string args_text(const SourceFile& f, const py::Call& c, const std::string& extra,
                      const std::set<std::string>& drop = {}) {
  std::string out = extra;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : ", ") + s; };
  for (const auto& a : c.args) add(span_text(f, a->span));
  for (const py::keyword& k : c.keywords) {
    if (drop.count(k.arg_name)) continue;
    add((k.is_double_star ? "**" : k.arg_name + "=") + span_text(f, k.value->span));
  }
  return out;
}

const py::keyword* keyword_of(const py::Call& c, const std::string& name) {
  for (const py::keyword& k : c.keywords)
    if (k.arg_name == name) return &k;
  return nullptr;
}

const CallSite* site_at(const std::vector<CallSite>& sites, const Diagnostic& d) {
  for (const CallSite& s : sites)
    if (s.call->span.begin.line == d.line && s.call->span.begin.col == d.col) return &s;
  return nullptr;
}

// The 2.24 nisa functions that take a `dst` keyword themselves (docs/nki-api-2.24.json, and the
// destination-passing tensor_scalar_cumulative and select_reduce builders of src/nki).
const std::set<std::string> kLegacyDstOps = {"dma_copy", "tensor_copy_dynamic_dst", "tensor_copy_predicated",
                                             "nc_stream_shuffle", "tensor_scalar_cumulative", "select_reduce"};

}  // namespace

namespace {

// Hints of the shared 2.24 checks that name 2.24 spellings, with their current-dialect wording.
struct HintRewrite {
  const char* from;
  const char* to;
};
const HintRewrite kHintRewrites[] = {
    {"mask the access (mask=(i < n)) or shrink the tile",
     "clip the slice (e.g. x[i * 128 : min((i + 1) * 128, n)], NKI 0.2+ has no masks) or shrink the tile"},
    {"use masks for ragged tiles",
     "clip ragged tiles in the slice (e.g. x[i * 128 : min((i + 1) * 128, n)]); NKI 0.2+ has no masks"},
    {"nl.store the tile into it", "copy the tile into it with nisa.dma_copy(dst=out, src=tile)"},
    {"nl.store the values into it", "copy the values into it with nisa.dma_copy"},
    {"then nl.store the result", "then copy the result out with nisa.dma_copy"},
};

void rewrite_legacy_wording(Diagnostic& d) {
  for (const HintRewrite& r : kHintRewrites) {
    auto at = d.hint.find(r.from);
    if (at != std::string::npos) d.hint.replace(at, std::string(r.from).size(), r.to);
  }
}

}  // namespace

void add_current_migration_hints(const py::Module& module, const std::string& version, front::TraceResult& res) {
  for (Diagnostic& d : res.diagnostics) rewrite_legacy_wording(d);
  if (!module.file) return;
  const SourceFile& f = *module.file;
  std::vector<CallSite> sites;
  collect(module.body, sites);
  auto aliases = module_aliases(module);
  for (Diagnostic& d : res.diagnostics) {
    if (d.severity != Severity::Error) continue;
    const CallSite* s = site_at(sites, d);
    if (!s) continue;
    std::string callee = resolve(s->call->func.get(), aliases);
    std::string shown = span_text(f, s->call->func->span);
    std::string call = span_text(f, s->call->span);
    std::string target = s->target ? span_text(f, s->target->span) : "";
    bool isa = callee.rfind("nki.isa.", 0) == 0;
    bool functional_isa = isa && (d.code == diag::name(diag::Code::missing_argument) || d.code == diag::name(diag::Code::dst_not_a_tensor) ||
                                  d.code == diag::name(diag::Code::too_many_arguments));
    if (functional_isa) {
      // `y = nisa.op(inputs...)`: 2.24 returned a new tile.
      std::string dst = target.empty() ? "dst" : target;
      std::string lead = s->call->args.empty() ? "dst=" + dst : dst;
      std::string rewritten = shown + "(" + args_text(f, *s->call, lead) + ")";
      if (callee == "nki.isa.memset") {
        // 2.24 memset(shape, value, dtype): 0.2+ memset(dst, value); shape and dtype come from dst.
        std::string value = s->call->args.size() > 1 ? span_text(f, s->call->args[1]->span) : "value";
        if (auto* k = keyword_of(*s->call, "value")) value = span_text(f, k->value->span);
        rewritten = shown + "(" + dst + ", " + value + ")";
      }
      d.hint = "`" + (target.empty() ? "" : target + " = ") + call + "` is the 2.24 form, which returned a new tile; in NKI " +
               version + " allocate `" + dst + " = nl.ndarray(shape, dtype=..., buffer=nl.sbuf)` and call `" + rewritten +
               "` (ISA calls are destination-passing: dst first)";
    } else if (d.code == diag::name(diag::Code::removed_api) && (callee == "nki.language.load" || callee == "nki.language.store")) {
      if (callee == "nki.language.load") {
        std::string src = s->call->args.empty() ? "src" : span_text(f, s->call->args[0]->span);
        if (auto* k = keyword_of(*s->call, "src")) src = span_text(f, k->value->span);
        std::string dst = target.empty() ? "dst" : target;
        d.hint = "`" + call + "` returns a tile in 2.24; in NKI " + version + " allocate `" + dst +
                 " = nl.ndarray(shape, dtype=..., buffer=nl.sbuf)` and call `nisa.dma_copy(dst=" + dst + ", src=" + src +
                 ")`";
      } else {
        std::string dst = s->call->args.size() > 0 ? span_text(f, s->call->args[0]->span) : "dst";
        std::string val = s->call->args.size() > 1 ? span_text(f, s->call->args[1]->span) : "value";
        if (auto* k = keyword_of(*s->call, "dst")) dst = span_text(f, k->value->span);
        if (auto* k = keyword_of(*s->call, "value")) val = span_text(f, k->value->span);
        d.hint = "`" + call + "` is the 2.24 store; in NKI " + version + " call `nisa.dma_copy(dst=" + dst + ", src=" +
                 val + ")`";
      }
    } else if (d.code == diag::name(diag::Code::unknown_argument)) {
      if (const py::keyword* k = keyword_of(*s->call, "mask")) {
        d.hint = "masks were removed in NKI 0.2: drop `mask=" + span_text(f, k->value->span) +
                 "` and clip the operands with slices instead (e.g. x[0:min(P, n - i * P), :]), i.e. `" + shown + "(" +
                 args_text(f, *s->call, "", {"mask"}) + ")` on the clipped tiles";
      } else if (const py::keyword* k2 = keyword_of(*s->call, "dtype"); k2 && isa) {
        d.hint = "the output dtype of an NKI 0.2+ ISA call is dst.dtype: drop `dtype=" + span_text(f, k2->value->span) +
                 "` (`" + shown + "(" + args_text(f, *s->call, "", {"dtype"}) +
                 ")`) and allocate dst with that dtype, or copy into one with nisa.tensor_copy";
      }
    }
  }
}

void add_legacy_migration_diagnostics(const py::Module& module, front::TraceResult& res) {
  if (!module.file) return;
  const SourceFile& f = *module.file;
  std::vector<CallSite> sites;
  collect(module.body, sites);
  auto aliases = module_aliases(module);
  for (const CallSite& s : sites) {
    std::string callee = resolve(s.call->func.get(), aliases);
    const std::string prefix = "neuronxcc.nki.isa.";
    if (callee.rfind(prefix, 0) != 0) continue;
    std::string op = callee.substr(prefix.size());
    const py::keyword* dst = keyword_of(*s.call, "dst");
    if (!dst || kLegacyDstOps.count(op)) continue;
    std::string shown = span_text(f, s.call->func->span);
    std::string dtext = span_text(f, dst->value->span);
    std::string target = dtext.find('[') == std::string::npos ? dtext + "[...]" : dtext;
    res.diagnostics.push_back(make_diagnostic(
        Severity::Warning, diag::Code::destination_passing_in_legacy_dialect,
        "`" + shown + "(dst=...)` is the NKI 0.2+ destination-passing form; the SDK 2.24 " + shown +
            " has no dst parameter, ignores it and returns a new tile",
        module.file, s.call->span.begin,
        "in 2.24 write `" + target + " = " + shown + "(" + args_text(f, *s.call, "", {"dst"}) +
            ")`, or port the file to the current dialect (`import nki.isa as nisa`)"));
  }
  // Attribute errors on names that only the current dialect has.
  for (Diagnostic& d : res.diagnostics) {
    if (d.severity != Severity::Error) continue;
    auto at = d.message.find("has no attribute '");
    if (at == std::string::npos) continue;
    std::string name = d.message.substr(at + 18);
    name = name.substr(0, name.find('\''));
    for (const char* mod : {"nl.", "nisa.", "nl.NkiTensor."}) {
      const ApiVersion* row = find_api_version(mod + name);
      if (!row) continue;
      std::string api = std::string(mod) == "nl.NkiTensor." ? "NkiTensor." + name : mod + name;
      d.hint = api + " is an API of the current NKI dialect (NKI " + row->range() +
               ", `import nki`), not of SDK 2.24 (neuronxcc.nki), which this file is compiled as; port the file to "
               "`import nki` / `import nki.language as nl` / `import nki.isa as nisa`, or use the 2.24 equivalent";
      break;
    }
  }
  (void)f;
}

}  // namespace nki::current
