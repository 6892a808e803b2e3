// nki-api-coverage: which SDK 2.24 NKI APIs (docs/nki-api-2.24.json) the front end binds.
//
// It builds the module objects the tracer gives a kernel (nki, nl, nisa, nt, ncc and ncc.sbuf /
// ncc.psum) and looks every 2.24 entry up in them:
//   implemented  - bound to a real implementation;
//   unsupported  - bound to an `unsupported_api` stub: calling it raises code unsupported_api
//                  (checked by calling it with no arguments; implementations reject that with a
//                  different error);
//   missing      - not bound at all (a kernel using it fails with a generic attribute error).
// Class and enum members are looked up with getattr on the bound object.
//
//   nki-api-coverage <nki-api-2.24.json> <out.md>           writes the table
//   nki-api-coverage --check <nki-api-2.24.json> <doc.md>   exit 1 if <doc.md> is stale or any
//                                                           2.24 API is missing entirely
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/diagnostic.h"
#include "base/source.h"
#include "lang/value.h"
#include "nki/tracer.h"
#include "nki_current/api_versions.h"
#include "nki_current/current_tracer.h"

using nlohmann::json;
namespace py = nki::py;

namespace {

struct Row {
  std::string module, name, kind, status, note;
};

enum class Probe { Implemented, Unsupported };

// Calls a callable with no arguments; an unsupported_api stub raises that code before looking at
// its arguments.
Probe probe_call(nki::front::Tracer& t, const py::Ref& obj, std::string* detail) {
  py::CallArgs args;
  try {
    obj->call(t, args);
  } catch (const py::PyError& e) {
    if (e.code == "unsupported_api") {
      *detail = e.message;
      return Probe::Unsupported;
    }
  } catch (...) {
  }
  return Probe::Implemented;
}

py::Ref lookup_attr(nki::front::Tracer& t, const py::Ref& obj, const std::string& name) {
  if (!obj) return nullptr;
  if (auto* m = dynamic_cast<py::ModuleObj*>(obj.get())) return m->find(name);
  try {
    return obj->getattr(t, name);
  } catch (...) {
    return nullptr;
  }
}

std::string md_escape(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string generate(const json& api, std::vector<std::string>* missing) {
  auto file = std::make_shared<nki::SourceFile>("<api-coverage>", "");
  nki::front::TraceOptions opts;
  nki::front::Tracer tracer(file, opts);
  std::map<std::string, py::Ref> modules;
  modules["nki"] = tracer.import_module("neuronxcc.nki");
  modules["nl"] = tracer.import_module("neuronxcc.nki.language");
  modules["nisa"] = tracer.import_module("neuronxcc.nki.isa");
  modules["nt"] = tracer.import_module("neuronxcc.nki.typing");
  modules["ncc"] = tracer.import_module("neuronxcc.nki.compiler");
  modules["ncc.sbuf"] = lookup_attr(tracer, modules["ncc"], "sbuf");
  modules["ncc.psum"] = lookup_attr(tracer, modules["ncc"], "psum");

  std::vector<Row> rows;
  std::map<std::string, std::set<std::string>> listed;
  std::map<std::string, std::map<std::string, int>> counts;  // module -> status -> n
  for (const json& e : api.at("entries")) {
    Row r;
    r.module = e.at("module").get<std::string>();
    r.name = e.at("name").get<std::string>();
    r.kind = e.at("kind").get<std::string>();
    listed[r.module].insert(r.name);
    std::vector<std::string> notes;
    py::Ref obj = lookup_attr(tracer, modules[r.module], r.name);
    if (!obj) {
      r.status = "missing";
      notes.push_back("not bound: a kernel using it gets a generic attribute error");
      missing->push_back(r.module + "." + r.name);
    } else {
      std::string detail;
      bool callable = dynamic_cast<py::BuiltinFn*>(obj.get()) != nullptr;
      if (callable && probe_call(tracer, obj, &detail) == Probe::Unsupported) {
        r.status = "unsupported: fails loudly";
        // The stub's stated reason, if any ("... is not supported by this simulator: REASON").
        const std::string marker = "is not supported by this simulator: ";
        auto at = detail.find(marker);
        notes.push_back(at == std::string::npos ? "raises unsupported_api"
                                                : "raises unsupported_api: " + detail.substr(at + marker.size()));
      } else {
        r.status = "implemented";
        // Members of classes and enums (a list of {name, kind} or a {name: value} map).
        std::vector<std::string> members;
        if (e.contains("members") && e["members"].is_array())
          for (const json& m : e["members"]) members.push_back(m.at("name").get<std::string>());
        else if (e.contains("members") && e["members"].is_object())
          for (auto it = e["members"].begin(); it != e["members"].end(); ++it) members.push_back(it.key());
        if (!members.empty()) {
          std::vector<std::string> absent;
          for (const std::string& m : members)
            if (!lookup_attr(tracer, obj, m)) absent.push_back(m);
          if (absent.empty()) {
            notes.push_back("all " + std::to_string(members.size()) + " members bound");
          } else if (absent.size() == members.size() && r.kind == "class") {
            notes.push_back("members are instance methods/properties: not introspected here");
          } else {
            std::string s = std::to_string(members.size() - absent.size()) + "/" +
                            std::to_string(members.size()) + " members bound; not bound:";
            for (const std::string& m : absent) s += " " + m;
            notes.push_back(s);
          }
        }
      }
    }
    if (e.contains("in_api_rst") && e["in_api_rst"].is_boolean() && !e["in_api_rst"].get<bool>())
      notes.push_back("stub-only (not in the 2.24 API reference)");
    if (e.contains("since") && e["since"].is_string() && e["since"].get<std::string>() != "2.20")
      notes.push_back("since " + e["since"].get<std::string>());
    for (size_t i = 0; i < notes.size(); ++i) r.note += (i ? "; " : "") + notes[i];
    counts[r.module][r.status]++;
    rows.push_back(std::move(r));
  }

  std::ostringstream md;
  md << "# NKI API coverage (SDK " << api.value("sdk", std::string("?")) << ")\n\n"
     << "Generated by `nki-api-coverage` (tools/api_coverage) from `docs/nki-api-2.24.json` and the\n"
     << "module objects the tracer binds (src/nki/api_*.cpp). Do not edit by hand: rebuild and run\n\n"
     << "    <build>/tools/api_coverage/nki-api-coverage docs/nki-api-2.24.json docs/api-coverage.md\n\n"
     << "The CTest test `api_coverage_doc` fails when this file is stale or when a 2.24 API is\n"
     << "missing entirely.\n\n"
     << "* **implemented**: bound to an implementation. Individual arguments or argument combinations\n"
     << "  may still be rejected with `unsupported_api` (e.g. `nisa.nc_matmul(perf_mode=...)`);\n"
     << "  that is not visible from here.\n"
     << "* **unsupported: fails loudly**: bound to a stub whose call raises `unsupported_api`.\n"
     << "* **missing**: not bound at all.\n\n";
  md << "## Summary\n\n| module | implemented | unsupported | missing | total |\n|---|---|---|---|---|\n";
  int ti = 0, tu = 0, tm = 0;
  for (auto& [mod, c] : counts) {
    int i = c["implemented"], u = c["unsupported: fails loudly"], m = c["missing"];
    ti += i;
    tu += u;
    tm += m;
    md << "| " << mod << " | " << i << " | " << u << " | " << m << " | " << (i + u + m) << " |\n";
  }
  md << "| **all** | " << ti << " | " << tu << " | " << tm << " | " << (ti + tu + tm) << " |\n\n";
  md << "## APIs\n\n| module | name | kind | status | note |\n|---|---|---|---|---|\n";
  for (const Row& r : rows)
    md << "| " << r.module << " | `" << r.name << "` | " << r.kind << " | " << r.status << " | "
       << md_escape(r.note) << " |\n";

  // Names the modules bind that SDK 2.24 does not list (extensions, numpy-style aliases).
  md << "\n## Bound names not in the 2.24 list\n\n";
  bool any = false;
  for (auto& [mod, ref] : modules) {
    auto* m = dynamic_cast<py::ModuleObj*>(ref.get());
    if (!m) continue;
    std::vector<std::string> extra;
    for (auto& [name, v] : m->attrs)
      if (!listed[mod].count(name) && !dynamic_cast<py::ModuleObj*>(v.get())) extra.push_back(name);
    if (extra.empty()) continue;
    any = true;
    md << "* " << mod << ":";
    for (const std::string& n : extra) md << " `" << n << "`";
    md << "\n";
  }
  if (!any) md << "None.\n";
  return md.str();
}

// The current dialect: every row of src/nki_current/api_versions.def with its versions and what
// the NKI 0.6 front end binds for it. `missing` gets the 0.6 names of nl / nisa / nki that are
// bound to nothing at all.
std::string generate_current(std::vector<std::string>* missing) {
  using nki::current::ApiVersion;
  auto file = std::make_shared<nki::SourceFile>("<api-coverage>", "");
  nki::front::TraceOptions opts;
  nki::current::CurrentTracer tracer(file, opts, "0.6");
  std::map<std::string, py::Ref> modules;
  modules["nki"] = tracer.import_module("nki");
  modules["nl"] = tracer.import_module("nki.language");
  modules["nisa"] = tracer.import_module("nki.isa");
  std::ostringstream md;
  md << "\n## Current dialect (NKI 0.2-0.6): per-version availability\n\n"
     << "Generated from `src/nki_current/api_versions.def`, which\n"
     << "`tools/api_coverage/derive_api_versions.py` derives from the API stubs\n"
     << "(`nki/api/nki/{,language/,isa/,collectives/}__init__.py`) at each SDK release commit of the\n"
     << "aws-neuron-sdk docs (2.28 = 0.2, 2.29 = 0.3, 2.30 = 0.4, 2.31 = 0.5, 2.32 = 0.6), corrected by\n"
     << "`release-notes/components/nki.rst` and `nki/migration/index.rst` (the source column).\n"
     << "A name that the chosen `--nki` version does not have fails with `api_not_in_version`, naming the\n"
     << "versions that have it (arguments: only `nc_matmul(accumulate=)` is checked, as\n"
     << "`unknown_argument`). Status is what the 0.6 front end binds (`nkiagent check`):\n"
     << "implemented, unsupported (fails loudly with `unsupported_api`), or missing.\n\n";
  std::map<std::string, std::map<std::string, int>> counts;
  std::ostringstream table;
  table << "| api | kind | 0.2 | 0.3 | 0.4 | 0.5 | 0.6 | renamed from / replaces | status (0.6) | source |\n"
        << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const ApiVersion& r : nki::current::api_versions()) {
    std::string status = "-";
    std::string mod = r.api.substr(0, r.api.find('.'));
    std::string rest = r.api.substr(r.api.find('.') + 1);
    bool present_06 = r.in(nki::current::kLastMinor);
    if (r.kind != "argument" && r.kind != "module" && present_06 && !r.api.starts_with("nki.collectives.")) {
      py::Ref obj;
      if (rest.starts_with("NkiTensor.")) {
        status = nki::current::tensor_attr_status(rest.substr(10));
        if (status.empty()) status = "missing";
      } else if (rest.find('.') == std::string::npos) {
        obj = lookup_attr(tracer, modules[mod], rest);
      } else {
        obj = nullptr;
        status = "";
      }
      if (rest.starts_with("NkiTensor.")) {
        // status set above
      } else if (status.empty()) {
        status = "-";
      } else if (!obj) {
        status = "missing";
        if (rest.find('.') == std::string::npos && r.kind != "class") missing->push_back(r.api);
      } else {
        std::string detail;
        bool callable = dynamic_cast<py::BuiltinFn*>(obj.get()) != nullptr;
        status = callable && probe_call(tracer, obj, &detail) == Probe::Unsupported ? "unsupported" : "implemented";
      }
    } else if (r.api.starts_with("nki.collectives.")) {
      status = present_06 ? "unsupported" : "-";
    } else if (r.kind == "module") {
      status = "implemented";
    }
    counts[mod][status]++;
    table << "| `" << r.api << "` | " << r.kind;
    for (int v = nki::current::kFirstMinor; v <= nki::current::kLastMinor; ++v) table << " | " << (r.in(v) ? "yes" : "-");
    table << " | " << (r.renamed_from.empty() ? "" : "`" + r.renamed_from + "`") << " | " << status << " | "
          << md_escape(r.source) << " |\n";
  }
  md << "| module | implemented | unsupported | missing | not in 0.6 or not probed | rows |\n|---|---|---|---|---|---|\n";
  for (auto& [mod, c] : counts) {
    int total = 0;
    for (auto& [k, n] : c) total += n;
    md << "| " << mod << " | " << c["implemented"] << " | " << c["unsupported"] << " | " << c["missing"] << " | "
       << c["-"] << " | " << total << " |\n";
  }
  md << "\n" << table.str();
  return md.str();
}

int usage() {
  std::fprintf(stderr, "usage: nki-api-coverage [--check] <nki-api-2.24.json> <api-coverage.md>\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  bool check = false;
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--check") check = true;
    else pos.push_back(a);
  }
  if (pos.size() != 2) return usage();
  json api;
  try {
    std::ifstream in(pos[0]);
    if (!in) {
      std::fprintf(stderr, "nki-api-coverage: cannot read %s\n", pos[0].c_str());
      return 2;
    }
    in >> api;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nki-api-coverage: %s: %s\n", pos[0].c_str(), e.what());
    return 2;
  }
  std::vector<std::string> missing;
  std::string md = generate(api, &missing);
  std::vector<std::string> missing_current;
  md += generate_current(&missing_current);
  if (!check) {
    std::ofstream out(pos[1]);
    out << md;
    if (!out) {
      std::fprintf(stderr, "nki-api-coverage: cannot write %s\n", pos[1].c_str());
      return 2;
    }
    for (const std::string& m : missing) std::fprintf(stderr, "missing entirely: %s\n", m.c_str());
    for (const std::string& m : missing_current) std::fprintf(stderr, "missing entirely (0.6): %s\n", m.c_str());
    return 0;
  }
  int rc = 0;
  std::ifstream in(pos[1]);
  std::stringstream cur;
  cur << in.rdbuf();
  if (!in || cur.str() != md) {
    std::fprintf(stderr,
                 "%s is stale: regenerate it with\n  nki-api-coverage %s %s\n", pos[1].c_str(),
                 pos[0].c_str(), pos[1].c_str());
    rc = 1;
  }
  for (const std::string& m : missing_current) {
    std::fprintf(stderr, "NKI 0.6 API missing entirely (neither implemented nor an unsupported_api stub): %s\n",
                 m.c_str());
    rc = 1;
  }
  for (const std::string& m : missing) {
    std::fprintf(stderr, "SDK 2.24 API missing entirely (neither implemented nor an unsupported_api stub): %s\n",
                 m.c_str());
    rc = 1;
  }
  return rc;
}
