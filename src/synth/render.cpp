// Rendering a candidate as a benchmark task (docs/tasks.md): task.json and reference.py.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "synth/candidate.h"
#include "synth/dim_expr.h"
#include "task/sha256.h"

namespace nki::synth {

using ojson = nlohmann::ordered_json;

uint64_t stable_hash(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : s) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

uint64_t Rng::next() {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::string dtype_short(const std::string& d) {
  if (d == "float32") return "fp32";
  if (d == "bfloat16") return "bf16";
  if (d == "float16") return "fp16";
  return d;
}

namespace {

std::vector<std::string> identifiers(const std::string& s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    if (std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_') {
      size_t b = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      out.push_back(s.substr(b, i - b));
    } else {
      ++i;
    }
  }
  return out;
}

size_t form_rank(const Seed& s, const Form& f) {
  size_t r = 0;
  for (const auto& t : s.inputs) r = std::max(r, f.shapes.at(t.name).size());
  return r;
}

Variant draw_variant(const SeedSet& set, const Seed& seed, int k, uint64_t salt) {
  Rng rng(stable_hash(std::to_string(salt) + "/" + seed.name + "/" + std::to_string(k)));
  Variant v;
  size_t n = seed.forms.size();
  auto first_with_rank = [&](size_t want, size_t fallback) {
    for (size_t i = 0; i < n; ++i)
      if (form_rank(seed, seed.forms[i]) == want) return i;
    return fallback % n;
  };
  if (k <= 1) v.form = 0;
  else if (k == 2) v.form = first_with_rank(3, 1);
  else if (k == 3) v.form = first_with_rank(4, n - 1);
  else v.form = rng.below(n);
  std::set<std::string> symbols;
  for (const auto& [name, shape] : seed.forms[v.form].shapes)
    for (const std::string& e : shape)
      for (const std::string& id : identifiers(e)) symbols.insert(id);
  // Variants 2-4 are awkward variants with probability kAwkwardVariantPercent (one coin per
  // variant); an awkward variant draws each role from the awkward pool by a fair coin, so it
  // mixes awkward and nice extents. One coin per role for every variant made 76 % of the
  // corpus awkward against the benchmark's 46 % (docs/synthesis.md, "Expansion").
  const bool awkward_variant = k == 1 || (k >= 2 && rng.below(100) < kAwkwardVariantPercent);
  for (const std::string& sym : symbols) {
    auto it = set.dims.find(role_of(sym));
    if (it == set.dims.end()) throw std::invalid_argument("shape symbol '" + sym + "' has no role in _dims.json");
    bool awkward = k == 1 || (k >= 2 && awkward_variant && rng.below(2) == 1);
    const std::vector<int64_t>& pool = awkward ? it->second.awkward : it->second.nice;
    v.dims[sym] = pool[rng.below(pool.size())];
  }
  for (const auto& [key, values] : seed.hyper) v.hyper[key] = k == 0 ? values[0] : values[rng.below(values.size())];
  return v;
}

std::string variant_key(const Variant& v) {
  std::string s = std::to_string(v.form);
  for (const auto& [k, x] : v.dims) s += "," + k + "=" + std::to_string(x);
  for (const auto& [k, x] : v.hyper) s += "," + k + "=" + x;
  return s;
}

using Subst = std::map<std::string, std::string>;

// Replaces every {key}; an unknown key is a seed bug and fails the rendering.
std::string substitute(const std::string& text, const Subst& m) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '{') {
      out += text[i];
      continue;
    }
    size_t e = text.find('}', i);
    if (e == std::string::npos) throw std::invalid_argument("unbalanced '{' in \"" + text + "\"");
    std::string key = text.substr(i + 1, e - i - 1);
    auto it = m.find(key);
    if (it == m.end()) throw std::invalid_argument("unknown template variable {" + key + "} in \"" + text + "\"");
    out += it->second;
    i = e;
  }
  return out;
}

ojson dist_json(const std::string& spec, const std::map<std::string, int64_t>& dims) {
  std::vector<std::string> parts;
  std::stringstream ss(spec);
  for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
  auto num = [&](size_t i) { return std::stod(parts.at(i)); };
  ojson d;
  const std::string& kind = parts.at(0);
  if (kind == "normal" && parts.size() == 1) d = {{"kind", "normal"}, {"mean", 0.0}, {"std", 1.0}};
  else if (kind == "normal" && parts.size() == 3) d = {{"kind", "normal"}, {"mean", num(1)}, {"std", num(2)}};
  else if (kind == "gain") d = {{"kind", "normal"}, {"mean", 1.0}, {"std", 0.1}};
  else if (kind == "small") d = {{"kind", "normal"}, {"mean", 0.0}, {"std", 0.1}};
  else if (kind == "positive") d = {{"kind", "uniform"}, {"low", 0.5}, {"high", 2.0}};
  else if (kind == "uniform" && parts.size() == 3) d = {{"kind", "uniform"}, {"low", num(1)}, {"high", num(2)}};
  else if (kind == "randint" && parts.size() == 3)
    d = {{"kind", "randint"}, {"low", eval_dim_expr(parts[1], dims)}, {"high", eval_dim_expr(parts[2], dims)}};
  else if (kind == "fanin" && parts.size() == 2) {
    double fan = static_cast<double>(eval_dim_expr(parts[1], dims));
    // 1/sqrt(fan_in), rounded to 4 digits so the manifest stays readable
    d = {{"kind", "normal"}, {"mean", 0.0}, {"std", std::round(1e4 / std::sqrt(fan)) / 1e4}};
  } else {
    throw std::invalid_argument("unknown dist '" + spec + "'");
  }
  return d;
}

std::vector<int64_t> eval_shape(const std::vector<std::string>& entries, const std::map<std::string, int64_t>& dims,
                                const std::string& what) {
  std::vector<int64_t> s;
  for (const std::string& e : entries) {
    int64_t v = eval_dim_expr(e, dims);
    if (v <= 0) throw std::invalid_argument("extent " + e + " of '" + what + "' is " + std::to_string(v));
    s.push_back(v);
  }
  return s;
}

int64_t elements(const std::vector<int64_t>& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

struct Tensor {
  std::string name, dtype;
  std::vector<int64_t> shape;
  ojson dist;
};

struct Code {
  std::vector<std::string> init, forward, args;
  std::vector<Tensor> inputs, params, buffers, outputs;
};

// nn.Module.named_parameters() (and named_buffers()) lists a module's own tensors first, then
// each submodule's in registration order; the manifest must list them the same way.
void order_like_torch(std::vector<Tensor>& ts) {
  std::vector<std::string> modules;
  auto rank = [&](const Tensor& t) -> size_t {
    size_t dot = t.name.find('.');
    if (dot == std::string::npos) return 0;
    std::string m = t.name.substr(0, dot);
    auto it = std::find(modules.begin(), modules.end(), m);
    if (it == modules.end()) {
      modules.push_back(m);
      return modules.size();
    }
    return static_cast<size_t>(it - modules.begin()) + 1;
  };
  std::vector<std::pair<size_t, Tensor>> keyed;
  for (const Tensor& t : ts) keyed.emplace_back(rank(t), t);
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < ts.size(); ++i) ts[i] = keyed[i].second;
}

bool applies(const Pattern& p, const std::vector<int64_t>& target) {
  return static_cast<int>(target.size()) >= p.min_rank && !target.empty() && target.back() >= p.min_last;
}

Code render_code(const SeedSet& set, const Seed& seed, const Variant& v, const std::vector<const Pattern*>& chain,
                 const std::string& dtype) {
  (void)set;
  const Form& f = seed.forms[v.form];
  Subst m;
  for (const auto& [k, x] : v.dims) m[k] = std::to_string(x);
  for (const auto& [k, x] : f.vars) m[k] = x;
  for (const auto& [k, x] : v.hyper) m[k] = x;
  Code c;
  auto tensor = [&](const TensorTemplate& t, const std::string& name, const std::vector<int64_t>& shape) {
    Tensor out{name, t.integer ? "int32" : dtype, shape, dist_json(t.dist, v.dims)};
    return out;
  };
  for (const auto& t : seed.inputs) c.inputs.push_back(tensor(t, t.name, eval_shape(f.shapes.at(t.name), v.dims, t.name)));
  // Automatic variables: the first input's last extent and its axis-1 extent (channels of
  // NCHW), so a seed writes nn.LayerNorm({X_LAST}) once for every form.
  const std::vector<int64_t>& x0 = c.inputs.at(0).shape;
  m["X_LAST"] = std::to_string(x0.back());
  if (x0.size() > 1) m["X_DIM1"] = std::to_string(x0[1]);
  for (auto& [k, x] : m)
    if (f.vars.count(k)) x = substitute(x, m);  // vars may use dims: "{F}"
  for (const auto& t : seed.params) c.params.push_back(tensor(t, t.name, eval_shape(f.shapes.at(t.name), v.dims, t.name)));
  for (const auto& t : seed.buffers) c.buffers.push_back(tensor(t, t.name, eval_shape(f.shapes.at(t.name), v.dims, t.name)));
  for (const std::string& o : seed.outputs)
    c.outputs.push_back(Tensor{"", seed.output_dtype.empty() ? dtype : seed.output_dtype, eval_shape(f.shapes.at(o), v.dims, o), {}});
  for (const std::string& l : seed.init) c.init.push_back(substitute(l, m));
  for (const auto& t : seed.inputs) c.args.push_back(t.name);

  const std::vector<int64_t> out = c.outputs.at(0).shape, in = c.inputs.at(0).shape;
  std::vector<std::string> prologue, body, epilogue;
  int np = 0, ne = 0;
  for (const Pattern* p : chain) {
    bool pro = p->at == "prologue";
    if (pro && c.inputs[0].dtype == "int32") throw std::invalid_argument("prologue " + p->name + " on an integer input");
    if (!pro && (!seed.fusable || c.outputs.size() != 1)) throw std::invalid_argument("seed takes no epilogue");
    const std::vector<int64_t>& target = pro ? in : out;
    if (!applies(*p, target)) throw std::invalid_argument("pattern " + p->name + " does not apply to this shape");
    Subst pm = m;
    pm["i"] = pro ? "p" + std::to_string(++np) : "e" + std::to_string(++ne);
    pm["in"] = seed.inputs[0].name;
    if (!out.empty()) pm["@last"] = std::to_string(out.back());  // a 0-d output has no last axis
    pm["@inlast"] = std::to_string(in.back());
    auto shape_of = [&](const TensorTemplate& t) {
      std::vector<int64_t> s;
      for (const std::string& e : t.shape) {
        if (e == "@out") s.insert(s.end(), out.begin(), out.end());
        else if (e == "@last" && !out.empty()) s.push_back(out.back());
        else if (e == "@last") throw std::invalid_argument("pattern " + p->name + " needs a last axis");
        else if (e == "@inlast") s.push_back(in.back());
        else s.push_back(eval_dim_expr(e, v.dims));
      }
      return s;
    };
    for (const std::string& l : p->init) c.init.push_back(substitute(l, pm));
    for (const auto& t : p->params) c.params.push_back(tensor(t, substitute(t.name, pm), shape_of(t)));
    for (const auto& t : p->inputs) {
      c.inputs.push_back(tensor(t, substitute(t.name, pm), shape_of(t)));
      c.args.push_back(c.inputs.back().name);
    }
    for (const std::string& l : p->lines) (pro ? prologue : epilogue).push_back(substitute(l, pm));
  }
  order_like_torch(c.params);
  order_like_torch(c.buffers);
  for (const std::string& l : seed.body) body.push_back(substitute(l, m));
  if (body.size() == 1 && body[0].rfind("y = ", 0) != 0) body[0] = "y = " + body[0];
  c.forward = prologue;
  c.forward.insert(c.forward.end(), body.begin(), body.end());
  c.forward.insert(c.forward.end(), epilogue.begin(), epilogue.end());
  c.forward.push_back("return y");
  return c;
}

ojson tensor_json(const Tensor& t, bool with_dist) {
  ojson j;
  if (!t.name.empty()) j["name"] = t.name;
  j["shape"] = t.shape;
  j["dtype"] = t.dtype;
  if (with_dist) j["dist"] = t.dist;
  return j;
}

std::string source_of(const Code& c, const std::string& doc) {
  std::string s = "import math\n\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\nclass Model(nn.Module):\n";
  s += "    \"\"\"" + doc + "\"\"\"\n\n    def __init__(self):\n        super().__init__()\n";
  for (const std::string& l : c.init) s += "        " + l + "\n";
  s += "\n    def forward(self";
  for (const std::string& a : c.args) s += ", " + a;
  s += "):\n";
  for (const std::string& l : c.forward) s += "        " + l + "\n";
  return s;
}

std::vector<const Pattern*> canonical_chain(const std::vector<const Pattern*>& chain) {
  std::vector<const Pattern*> out;
  for (const Pattern* p : chain)
    if (!(p->idempotent && !out.empty() && out.back() == p)) out.push_back(p);
  return out;
}

std::string shapes_text(const Code& c, const std::string& dtype) {
  std::string s = dtype;
  for (const auto* group : {&c.inputs, &c.params, &c.buffers, &c.outputs})
    for (const Tensor& t : *group) {
      s += "|" + t.dtype;
      for (int64_t d : t.shape) s += "," + std::to_string(d);
    }
  return s;
}

}  // namespace

Variant make_variant(const SeedSet& set, const Seed& seed, int variant, uint64_t rng_seed) {
  // Variants of one seed differ from each other when the pools allow it: a draw equal to an
  // earlier variant is redrawn (a few times) with another salt.
  std::set<std::string> earlier;
  for (int k = 0; k < variant; ++k) earlier.insert(variant_key(make_variant(set, seed, k, rng_seed)));
  Variant v = draw_variant(set, seed, variant, rng_seed);
  for (uint64_t salt = 1; salt <= 8 && earlier.count(variant_key(v)); ++salt)
    v = draw_variant(set, seed, variant, rng_seed + 7919 * salt);
  return v;
}

void render_candidate(const SeedSet& set, uint64_t rng_seed, Candidate& c) {
  const Seed& seed = *c.seed;
  try {
    Variant v = make_variant(set, seed, c.variant, rng_seed);
    Code code = render_code(set, seed, v, c.chain, c.dtype);
    const Form& f = seed.forms[v.form];
    std::string desc = seed.description;
    desc += " Input " + code.inputs[0].name + ": ";
    for (size_t i = 0; i < code.inputs[0].shape.size(); ++i) desc += (i ? "x" : "") + std::to_string(code.inputs[0].shape[i]);
    desc += ".";
    if (!c.chain.empty()) {
      desc += " Fused:";
      for (size_t i = 0; i < c.chain.size(); ++i) desc += std::string(i ? "," : "") + " " + c.chain[i]->at + " " + c.chain[i]->name;
      desc += ".";
    }
    desc += " (" + c.dtype + ")";
    c.reference_py = source_of(code, desc);

    // Tags: the seed's and the form's, the fusion kinds, and "awkward" when the first input's
    // partition extent (all but the last axis) or its last extent is not a multiple of 128.
    std::set<std::string> tags(seed.tags.begin(), seed.tags.end());
    tags.insert(f.tags.begin(), f.tags.end());
    tags.insert("synth");
    for (const Pattern* p : c.chain) tags.insert(p->kind);
    const std::vector<int64_t>& in = code.inputs[0].shape;
    int64_t rows = elements(in) / in.back();
    if ((in.size() > 1 && rows % 128 != 0) || in.back() % 128 != 0) tags.insert("awkward");
    tags.insert(std::to_string(in.size()) + "d");
    c.tags.assign(tags.begin(), tags.end());

    ojson j;
    j["id"] = c.id;
    j["level"] = c.level;
    j["category"] = c.category;
    j["tags"] = c.tags;
    j["description"] = desc;
    j["origin"] = seed.provenance + "; synthesised by nkiagent synth";
    j["family"] = c.family;
    j["init_args"] = ojson::array();
    for (const char* group : {"inputs", "parameters", "buffers"}) j[group] = ojson::array();
    for (const Tensor& t : code.inputs) j["inputs"].push_back(tensor_json(t, true));
    for (const Tensor& t : code.params) j["parameters"].push_back(tensor_json(t, true));
    for (const Tensor& t : code.buffers) j["buffers"].push_back(tensor_json(t, true));
    j["outputs"] = ojson::array();
    for (const Tensor& t : code.outputs) j["outputs"].push_back(tensor_json(t, false));
    j["tolerance"] = nullptr;
    j["seed"] = 1 + stable_hash(c.id) % 1000000000ull;
    j["trials"] = 2;
    c.manifest_json = j.dump();

    c.arg_shapes.clear();
    c.arg_dtypes.clear();
    c.max_tensor_elements = 0;
    for (const auto* group : {&code.inputs, &code.params, &code.buffers})
      for (const Tensor& t : *group) {
        c.arg_shapes.push_back(t.shape);
        c.arg_dtypes.push_back(t.dtype);
        c.max_tensor_elements = std::max(c.max_tensor_elements, elements(t.shape));
      }
    for (const Tensor& t : code.outputs) {
      c.output_shapes.push_back(t.shape);
      c.output_dtypes.push_back(t.dtype);
      c.max_tensor_elements = std::max(c.max_tensor_elements, elements(t.shape));
    }
    // macs expressions may use OUT (elements of the first output) and IN (of the first input)
    std::map<std::string, int64_t> msym = v.dims;
    msym["OUT"] = elements(code.outputs[0].shape);
    msym["IN"] = elements(code.inputs[0].shape);
    c.macs = seed.macs.empty() ? msym["OUT"] : eval_dim_expr(seed.macs, msym);

    // Canonical op graph: the code of the chain with idempotent repeats collapsed, without the
    // docstring, plus every shape and dtype. Two candidates with the same text compute the same
    // function on the same shapes.
    std::vector<const Pattern*> canon = canonical_chain(c.chain);
    Code cc = canon.size() == c.chain.size() ? code : render_code(set, seed, v, canon, c.dtype);
    std::string g = source_of(cc, "") + "\n" + shapes_text(cc, c.dtype);
    c.graph_hash = sha256_hex(g);
    c.content_key = sha256_hex(std::string("synth-worker-1\n") + c.manifest_json + "\n" + c.reference_py);
  } catch (const std::exception& e) {
    c.render_error = e.what();
  }
}

std::string final_manifest_text(const std::string& manifest_json, const std::string& tolerance_json) {
  ojson j = ojson::parse(manifest_json);
  j["tolerance"] = ojson::parse(tolerance_json);
  // The benchmark's layout: one field per line, one tensor per line.
  std::string s = "{\n";
  size_t i = 0;
  for (auto it = j.begin(); it != j.end(); ++it, ++i) {
    s += "  \"" + it.key() + "\": ";
    const ojson& v = it.value();
    if (v.is_array() && !v.empty() && v[0].is_object()) {
      s += "[\n";
      for (size_t k = 0; k < v.size(); ++k) s += "    " + v[k].dump() + (k + 1 < v.size() ? ",\n" : "\n");
      s += "  ]";
    } else {
      s += v.dump();
    }
    s += i + 1 < j.size() ? ",\n" : "\n";
  }
  return s + "}\n";
}

}  // namespace nki::synth
