#include "synth/seed_set.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/diagnostic.h"

namespace nki::synth {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw IoError(where + ": " + what); }

json read_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot read");
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    return json::parse(ss.str());
  } catch (const json::parse_error& e) {
    fail(path, std::string("invalid JSON: ") + e.what());
  }
}

// Rejects fields outside `allowed` (they are usually typos).
void only_fields(const json& j, const std::string& where, std::initializer_list<const char*> allowed) {
  if (!j.is_object()) fail(where, "must be an object");
  for (const auto& [k, v] : j.items()) {
    (void)v;
    if (std::find_if(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; }) == allowed.end())
      fail(where, "unknown field '" + k + "'");
  }
}

std::string text(const json& j, const char* key, const std::string& where, const std::string& def = {}, bool required = false) {
  if (!j.contains(key)) {
    if (required) fail(where, std::string("missing field '") + key + "'");
    return def;
  }
  if (!j[key].is_string()) fail(where, std::string("field '") + key + "' must be a string");
  return j[key].get<std::string>();
}

// A string or a list of strings (a list also accepts numbers, kept as their text).
std::vector<std::string> lines(const json& j, const std::string& where) {
  std::vector<std::string> out;
  if (j.is_string()) return {j.get<std::string>()};
  if (!j.is_array()) fail(where, "must be a string or a list");
  for (const json& e : j) {
    if (e.is_string()) out.push_back(e.get<std::string>());
    else if (e.is_number_integer()) out.push_back(std::to_string(e.get<int64_t>()));
    else if (e.is_number()) {
      std::ostringstream ss;
      ss << e.get<double>();
      out.push_back(ss.str());
    } else fail(where, "entries must be strings or numbers");
  }
  return out;
}

bool flag(const json& j, const char* key, const std::string& where, bool def) {
  if (!j.contains(key)) return def;
  if (!j[key].is_boolean()) fail(where, std::string("field '") + key + "' must be true or false");
  return j[key].get<bool>();
}

TensorTemplate tensor(const json& j, const std::string& where, bool with_shape) {
  if (j.is_string()) {
    TensorTemplate t;
    t.name = j.get<std::string>();
    return t;
  }
  only_fields(j, where, {"name", "dist", "int", "shape"});
  TensorTemplate t;
  t.name = text(j, "name", where, {}, true);
  t.dist = text(j, "dist", where, "normal");
  t.integer = flag(j, "int", where, false);
  if (j.contains("shape")) {
    if (!with_shape) fail(where, "seed tensors take their shape from the forms");
    t.shape = lines(j["shape"], where + ".shape");
  }
  if (t.integer && t.dist.rfind("randint:", 0) != 0) fail(where, "an integer tensor needs a randint dist");
  if (!t.integer && t.dist.rfind("randint:", 0) == 0) fail(where, "randint is for integer tensors (\"int\": true)");
  return t;
}

std::vector<TensorTemplate> tensors(const json& j, const char* key, const std::string& where, bool with_shape) {
  std::vector<TensorTemplate> out;
  if (!j.contains(key)) return out;
  if (!j[key].is_array()) fail(where, std::string("field '") + key + "' must be a list");
  for (size_t i = 0; i < j[key].size(); ++i)
    out.push_back(tensor(j[key][i], where + "." + key + "[" + std::to_string(i) + "]", with_shape));
  return out;
}

Form form(const json& j, const std::string& where) {
  only_fields(j, where, {"shapes", "vars", "tags"});
  Form f;
  if (!j.contains("shapes") || !j["shapes"].is_object()) fail(where, "needs an object 'shapes'");
  for (const auto& [name, s] : j["shapes"].items()) f.shapes[name] = lines(s, where + ".shapes." + name);
  if (j.contains("vars")) {
    if (!j["vars"].is_object()) fail(where, "'vars' must be an object");
    for (const auto& [k, v] : j["vars"].items()) f.vars[k] = lines(json::array({v}), where + ".vars." + k)[0];
  }
  if (j.contains("tags")) f.tags = lines(j["tags"], where + ".tags");
  return f;
}

std::vector<Form> forms(const json& j, const std::string& where, const std::map<std::string, std::vector<Form>>& layouts) {
  std::vector<Form> out;
  if (j.contains("layout")) {
    std::string name = text(j, "layout", where);
    auto it = layouts.find(name);
    if (it == layouts.end()) fail(where, "unknown layout '" + name + "' (see _layouts.json)");
    out = it->second;
  }
  if (j.contains("forms")) {
    if (!j["forms"].is_array()) fail(where, "'forms' must be a list");
    for (size_t i = 0; i < j["forms"].size(); ++i) out.push_back(form(j["forms"][i], where + ".forms[" + std::to_string(i) + "]"));
  }
  if (out.empty()) fail(where, "needs 'layout' or 'forms'");
  return out;
}

Seed seed(const json& j, const std::string& where, const std::string& file,
          const std::map<std::string, std::vector<Form>>& layouts) {
  only_fields(j, where, {"name", "level", "category", "provenance", "description", "aliases", "inputs", "params",
                         "buffers", "outputs", "output_dtype", "init", "body", "layout", "forms", "hyper", "macs",
                         "contract", "reduce", "fusable", "dtypes", "tags"});
  Seed s;
  s.file = file;
  s.name = text(j, "name", where, {}, true);
  if (s.name.empty() || s.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
    fail(where, "name '" + s.name + "' must be lower-case letters, digits and '_'");
  if (!j.contains("level") || !j["level"].is_number_integer()) fail(where, "needs an integer 'level'");
  s.level = j["level"].get<int>();
  if (s.level < 1 || s.level > 3) fail(where, "level must be 1, 2 or 3");
  s.category = text(j, "category", where, {}, true);
  s.provenance = text(j, "provenance", where, {}, true);
  s.description = text(j, "description", where, {}, true);
  if (j.contains("aliases")) s.aliases = lines(j["aliases"], where + ".aliases");
  s.inputs = tensors(j, "inputs", where, false);
  s.params = tensors(j, "params", where, false);
  s.buffers = tensors(j, "buffers", where, false);
  if (s.inputs.empty()) fail(where, "needs at least one input");
  if (j.contains("outputs")) s.outputs = lines(j["outputs"], where + ".outputs");
  s.output_dtype = text(j, "output_dtype", where);
  if (!s.output_dtype.empty() && s.output_dtype != "int32") fail(where, "output_dtype must be \"int32\" when given");
  if (j.contains("init")) s.init = lines(j["init"], where + ".init");
  if (!j.contains("body")) fail(where, "missing field 'body'");
  s.body = lines(j["body"], where + ".body");
  s.forms = forms(j, where, layouts);
  if (j.contains("hyper")) {
    if (!j["hyper"].is_object()) fail(where, "'hyper' must be an object");
    for (const auto& [k, v] : j["hyper"].items()) {
      s.hyper[k] = lines(v, where + ".hyper." + k);
      if (s.hyper[k].empty()) fail(where, "hyper '" + k + "' has no values");
    }
  }
  s.macs = text(j, "macs", where);
  s.contract = flag(j, "contract", where, false);
  s.reduce = flag(j, "reduce", where, false);
  s.fusable = flag(j, "fusable", where, s.outputs.size() == 1 && s.output_dtype.empty());
  if (j.contains("dtypes")) s.dtypes = lines(j["dtypes"], where + ".dtypes");
  for (const std::string& d : s.dtypes)
    if (d != "float32" && d != "bfloat16" && d != "float16") fail(where, "dtype '" + d + "' is not float32, bfloat16 or float16");
  if (j.contains("tags")) s.tags = lines(j["tags"], where + ".tags");
  // Every tensor needs a shape in every form.
  for (size_t fi = 0; fi < s.forms.size(); ++fi) {
    auto need = [&](const std::string& n) {
      if (!s.forms[fi].shapes.count(n)) fail(where, "form " + std::to_string(fi) + " gives no shape for '" + n + "'");
    };
    for (const auto& t : s.inputs) need(t.name);
    for (const auto& t : s.params) need(t.name);
    for (const auto& t : s.buffers) need(t.name);
    for (const auto& o : s.outputs) need(o);
  }
  return s;
}

Pattern pattern(const json& j, const std::string& where) {
  only_fields(j, where, {"name", "at", "kind", "init", "line", "params", "inputs", "reduce", "contract", "idempotent",
                         "min_rank", "min_last"});
  Pattern p;
  p.name = text(j, "name", where, {}, true);
  p.at = text(j, "at", where, "epilogue");
  if (p.at != "epilogue" && p.at != "prologue") fail(where, "'at' must be epilogue or prologue");
  p.kind = text(j, "kind", where, {}, true);
  if (j.contains("init")) p.init = lines(j["init"], where + ".init");
  if (!j.contains("line")) fail(where, "missing field 'line'");
  p.lines = lines(j["line"], where + ".line");
  p.params = tensors(j, "params", where, true);
  p.inputs = tensors(j, "inputs", where, true);
  p.reduce = flag(j, "reduce", where, false);
  p.contract = flag(j, "contract", where, false);
  p.idempotent = flag(j, "idempotent", where, false);
  if (j.contains("min_rank")) p.min_rank = j["min_rank"].get<int>();
  if (j.contains("min_last")) p.min_last = j["min_last"].get<int64_t>();
  return p;
}

std::vector<int64_t> ints(const json& j, const std::string& where) {
  std::vector<int64_t> out;
  if (!j.is_array() || j.empty()) fail(where, "must be a non-empty list of positive integers");
  for (const json& e : j) {
    if (!e.is_number_integer() || e.get<int64_t>() <= 0) fail(where, "must be a non-empty list of positive integers");
    out.push_back(e.get<int64_t>());
  }
  return out;
}

}  // namespace

std::string role_of(const std::string& symbol) {
  size_t end = symbol.size();
  while (end > 1 && std::isdigit(static_cast<unsigned char>(symbol[end - 1]))) --end;
  return symbol.substr(0, end);
}

SeedSet load_seed_set(const std::string& dir) {
  if (!fs::is_directory(dir)) throw IoError(dir + ": no such seed directory");
  SeedSet set;
  std::map<std::string, std::vector<Form>> layouts;
  const std::string dims_path = dir + "/_dims.json", layouts_path = dir + "/_layouts.json", patterns_path = dir + "/_patterns.json";
  for (const std::string& p : {dims_path, layouts_path, patterns_path})
    if (!fs::exists(p)) throw IoError(p + ": missing (the seed directory needs _dims, _layouts and _patterns)");
  json dims = read_json(dims_path);
  for (const auto& [role, v] : dims.items()) {
    std::string where = dims_path + ": " + role;
    only_fields(v, where, {"nice", "awkward", "about"});
    set.dims[role] = DimRole{ints(v.value("nice", json()), where + ".nice"), ints(v.value("awkward", json()), where + ".awkward")};
  }
  json lay = read_json(layouts_path);
  for (const auto& [name, list] : lay.items()) {
    if (!list.is_array()) fail(layouts_path + ": " + name, "must be a list of forms");
    for (size_t i = 0; i < list.size(); ++i) layouts[name].push_back(form(list[i], layouts_path + ": " + name + "[" + std::to_string(i) + "]"));
  }
  json pats = read_json(patterns_path);
  if (!pats.is_array()) fail(patterns_path, "must be a list of patterns");
  std::set<std::string> pattern_names;
  for (size_t i = 0; i < pats.size(); ++i) {
    Pattern p = pattern(pats[i], patterns_path + ": [" + std::to_string(i) + "]");
    if (!pattern_names.insert(p.name).second) fail(patterns_path, "duplicate pattern '" + p.name + "'");
    set.patterns.push_back(std::move(p));
  }
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string fname = e.path().filename().string();
    if (e.is_regular_file() && e.path().extension() == ".json" && fname[0] != '_') files.push_back(fname);
  }
  std::sort(files.begin(), files.end());
  std::set<std::string> names;
  for (const std::string& fname : files) {
    std::string path = dir + "/" + fname;
    json j = read_json(path);
    only_fields(j, path, {"family", "about", "seeds"});
    if (!j.contains("seeds") || !j["seeds"].is_array()) fail(path, "needs a list 'seeds'");
    for (size_t i = 0; i < j["seeds"].size(); ++i) {
      std::string where = path + ": seeds[" + std::to_string(i) + "]";
      Seed s = seed(j["seeds"][i], where, fname, layouts);
      if (!names.insert(s.name).second) fail(where, "duplicate seed name '" + s.name + "'");
      for (const Form& f : s.forms)
        for (const auto& [tn, shape] : f.shapes)
          for (const std::string& d : shape)
            if (!d.empty() && std::isalpha(static_cast<unsigned char>(d[0])) && d.find_first_of("+-*/()") == std::string::npos &&
                !set.dims.count(role_of(d)))
              fail(where, "shape of '" + tn + "' uses '" + d + "', whose role '" + role_of(d) + "' is not in _dims.json");
      set.seeds.push_back(std::move(s));
    }
  }
  set.files = files;
  if (set.seeds.empty()) throw IoError(dir + ": no seeds (no *.json family files)");
  return set;
}

}  // namespace nki::synth
