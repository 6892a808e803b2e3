#include "task/task_spec.h"

#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/diagnostic.h"

namespace nki {

using nlohmann::json;

int64_t TensorSpec::element_count() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Tolerance default_tolerance(DType t) {
  switch (t) {
    case DType::Float32:
    case DType::TFloat32: return {1e-3, 1e-3};
    case DType::Float16: return {5e-3, 5e-3};
    case DType::BFloat16: return {1e-2, 1e-2};
    case DType::Float8E4M3:
    case DType::Float8E5M2: return {1e-1, 1e-1};
    default: return {0.0, 0.0};  // integer outputs must match exactly
  }
}

std::vector<TensorSpec> TaskSpec::kernel_args() const {
  std::vector<TensorSpec> args = inputs;
  args.insert(args.end(), parameters.begin(), parameters.end());
  args.insert(args.end(), buffers.begin(), buffers.end());
  return args;
}

Tolerance TaskSpec::tolerance_for(DType dtype, bool strict) const {
  if (!dtype_is_float(dtype)) return {0.0, 0.0};
  if (strict) return {kStrictTolerance, kStrictTolerance};
  return tolerance ? *tolerance : default_tolerance(dtype);
}

namespace {

// Validation context: every error names the file and the JSON path of the field.
struct Ctx {
  const std::string& file;
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw IoError(file + ": field '" + field + "': " + what);
  }
};

const json& field(const Ctx& c, const json& obj, const std::string& path, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end()) c.fail(path.empty() ? key : path + "." + key, "missing");
  return *it;
}

std::string join(const std::string& path, const char* key) {
  return path.empty() ? std::string(key) : path + "." + key;
}

std::string get_string(const Ctx& c, const json& obj, const std::string& path, const char* key,
                       bool allow_empty = false) {
  const json& v = field(c, obj, path, key);
  if (!v.is_string()) c.fail(join(path, key), "must be a string");
  std::string s = v.get<std::string>();
  if (!allow_empty && s.empty()) c.fail(join(path, key), "must not be empty");
  return s;
}

double get_number(const Ctx& c, const json& obj, const std::string& path, const char* key) {
  const json& v = field(c, obj, path, key);
  if (!v.is_number()) c.fail(join(path, key), "must be a number");
  double d = v.get<double>();
  if (!std::isfinite(d)) c.fail(join(path, key), "must be finite");
  return d;
}

int64_t get_int(const Ctx& c, const json& obj, const std::string& path, const char* key) {
  const json& v = field(c, obj, path, key);
  if (!v.is_number_integer()) c.fail(join(path, key), "must be an integer");
  return v.get<int64_t>();
}

void check_keys(const Ctx& c, const json& obj, const std::string& path,
                const std::set<std::string>& allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (!allowed.count(it.key())) {
      c.fail(path.empty() ? it.key() : path + "." + it.key(), "unknown field (typo?)");
    }
  }
}

Distribution parse_dist(const Ctx& c, const json& v, const std::string& path, DType dtype) {
  if (!v.is_object()) c.fail(path, "must be an object");
  std::string kind = get_string(c, v, path, "kind");
  Distribution d;
  if (kind == "normal") {
    check_keys(c, v, path, {"kind", "mean", "std"});
    d.kind = Distribution::Kind::Normal;
    d.mean = get_number(c, v, path, "mean");
    d.stddev = get_number(c, v, path, "std");
    if (d.stddev < 0) c.fail(path + ".std", "must be >= 0");
  } else if (kind == "uniform") {
    check_keys(c, v, path, {"kind", "low", "high"});
    d.kind = Distribution::Kind::Uniform;
    d.low = get_number(c, v, path, "low");
    d.high = get_number(c, v, path, "high");
    if (!(d.low < d.high)) c.fail(path, "uniform needs low < high");
  } else if (kind == "randint") {
    check_keys(c, v, path, {"kind", "low", "high"});
    d.kind = Distribution::Kind::RandInt;
    d.low = static_cast<double>(get_int(c, v, path, "low"));
    d.high = static_cast<double>(get_int(c, v, path, "high"));
    if (!(d.low < d.high)) c.fail(path, "randint needs low < high (high is exclusive)");
  } else {
    c.fail(path + ".kind", "unknown distribution '" + kind + "' (normal, uniform, randint)");
  }
  bool is_float = dtype_is_float(dtype);
  if (is_float && d.kind == Distribution::Kind::RandInt) {
    c.fail(path + ".kind", "randint is only for integer tensors");
  }
  if (!is_float && d.kind != Distribution::Kind::RandInt) {
    c.fail(path + ".kind", "integer tensors need a randint distribution");
  }
  return d;
}

DType parse_tensor_dtype(const Ctx& c, const json& obj, const std::string& path) {
  std::string name = get_string(c, obj, path, "dtype");
  auto t = parse_dtype(name);
  // The manifest uses canonical NKI names only, so that golden.py and C++ agree.
  if (!t || name != dtype_name(*t)) c.fail(path + ".dtype", "unknown dtype '" + name + "'");
  switch (*t) {
    case DType::Float32: case DType::Float16: case DType::BFloat16:
    case DType::Int8: case DType::Int16: case DType::Int32:
    case DType::UInt8: case DType::UInt16: case DType::UInt32: case DType::Bool:
      return *t;
    default:
      c.fail(path + ".dtype", "dtype '" + name + "' is not supported in tasks (torch 1.13 has "
             "no fp8/tf32)");
  }
}

TensorSpec parse_tensor(const Ctx& c, const json& v, const std::string& path, bool is_output) {
  if (!v.is_object()) c.fail(path, "must be an object");
  TensorSpec t;
  if (is_output) {
    check_keys(c, v, path, {"name", "shape", "dtype"});
    if (v.contains("name")) t.name = get_string(c, v, path, "name");
  } else {
    check_keys(c, v, path, {"name", "shape", "dtype", "dist"});
    t.name = get_string(c, v, path, "name");
  }
  const json& shape = field(c, v, path, "shape");
  if (!shape.is_array()) c.fail(path + ".shape", "must be a list of positive integers");
  if (shape.empty() && !is_output) c.fail(path + ".shape", "must not be empty");
  for (const json& d : shape) {
    if (!d.is_number_integer() || d.get<int64_t>() <= 0) {
      c.fail(path + ".shape", "must be a list of positive integers");
    }
    t.shape.push_back(d.get<int64_t>());
  }
  if (t.element_count() > (int64_t{1} << 26)) c.fail(path + ".shape", "tensor too large");
  t.dtype = parse_tensor_dtype(c, v, path);
  if (!is_output) t.dist = parse_dist(c, field(c, v, path, "dist"), path + ".dist", t.dtype);
  return t;
}

std::vector<TensorSpec> parse_tensor_list(const Ctx& c, const json& root, const char* key,
                                          bool is_output) {
  const json& list = field(c, root, "", key);
  if (!list.is_array()) c.fail(key, "must be a list");
  std::vector<TensorSpec> out;
  std::set<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) {
    std::string path = std::string(key) + "[" + std::to_string(i) + "]";
    out.push_back(parse_tensor(c, list[i], path, is_output));
    if (!out.back().name.empty() && !names.insert(out.back().name).second) {
      c.fail(path + ".name", "duplicate name '" + out.back().name + "'");
    }
  }
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path + ": cannot read file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool is_dir(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_file(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string basename_of(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  size_t slash = dir.rfind('/');
  return slash == std::string::npos ? dir : dir.substr(slash + 1);
}

}  // namespace

TaskSpec parse_task(const std::string& json_text, const std::string& file,
                    const std::string& expected_id) {
  Ctx c{file};
  json root;
  try {
    root = json::parse(json_text);
  } catch (const json::parse_error& e) {
    throw IoError(file + ": invalid JSON: " + e.what());
  }
  if (!root.is_object()) throw IoError(file + ": top level must be a JSON object");
  check_keys(c, root, "",
             {"id", "level", "category", "tags", "description", "origin", "family", "init_args",
              "inputs", "parameters", "buffers", "outputs", "tolerance", "seed", "trials"});
  TaskSpec t;
  t.id = get_string(c, root, "", "id");
  if (!expected_id.empty() && t.id != expected_id) {
    c.fail("id", "'" + t.id + "' differs from the directory name '" + expected_id + "'");
  }
  int64_t level = get_int(c, root, "", "level");
  if (level < 1 || level > 3) c.fail("level", "must be 1, 2 or 3");
  t.level = static_cast<int>(level);
  t.category = get_string(c, root, "", "category");
  const json& tags = field(c, root, "", "tags");
  if (!tags.is_array()) c.fail("tags", "must be a list of strings");
  for (const json& tag : tags) {
    if (!tag.is_string()) c.fail("tags", "must be a list of strings");
    t.tags.push_back(tag.get<std::string>());
  }
  t.description = get_string(c, root, "", "description");
  t.origin = get_string(c, root, "", "origin");
  t.family = get_string(c, root, "", "family");
  const json& init_args = field(c, root, "", "init_args");
  if (!init_args.is_array()) c.fail("init_args", "must be a list");
  t.init_args_json = init_args.dump();
  t.inputs = parse_tensor_list(c, root, "inputs", false);
  t.parameters = parse_tensor_list(c, root, "parameters", false);
  t.buffers = parse_tensor_list(c, root, "buffers", false);
  t.outputs = parse_tensor_list(c, root, "outputs", true);
  if (t.inputs.empty()) c.fail("inputs", "a task needs at least one input");
  if (t.outputs.empty()) c.fail("outputs", "a task needs at least one output");
  const json& tol = field(c, root, "", "tolerance");
  if (!tol.is_null()) {
    if (!tol.is_object()) c.fail("tolerance", "must be null or {\"atol\": a, \"rtol\": r}");
    check_keys(c, tol, "tolerance", {"atol", "rtol"});
    Tolerance v{get_number(c, tol, "tolerance", "atol"), get_number(c, tol, "tolerance", "rtol")};
    if (v.atol < 0 || v.rtol < 0) c.fail("tolerance", "atol and rtol must be >= 0");
    t.tolerance = v;
  }
  int64_t seed = get_int(c, root, "", "seed");
  if (seed < 0 || seed > (int64_t{1} << 62)) c.fail("seed", "must be a non-negative integer");
  t.seed = static_cast<uint64_t>(seed);
  int64_t trials = get_int(c, root, "", "trials");
  if (trials < 1 || trials > 100) c.fail("trials", "must be between 1 and 100");
  t.trials = static_cast<int>(trials);
  return t;
}

TaskSpec load_task(const std::string& dir) {
  std::string file = dir + "/task.json";
  if (!is_dir(dir)) throw IoError(dir + ": task directory not found");
  if (!is_file(file)) throw IoError(file + ": file not found");
  if (!is_file(dir + "/reference.py")) throw IoError(dir + "/reference.py: file not found");
  TaskSpec t = parse_task(read_file(file), file, basename_of(dir));
  t.dir = dir;
  return t;
}

std::string default_tasks_root() {
  if (const char* env = std::getenv("NKI_TASKS_DIR"); env && *env) return env;
#ifdef NKI_REPO_ROOT
  return std::string(NKI_REPO_ROOT) + "/tasks";
#else
  return "tasks";
#endif
}

std::string default_solutions_dir(const std::string& tasks_root, bool current_dialect) {
  return tasks_root + (current_dialect ? "/../solutions_nki06" : "/../solutions");
}

std::string resolve_task_dir(const std::string& id_or_dir, const std::string& tasks_root) {
  if (is_file(id_or_dir + "/task.json")) return id_or_dir;
  if (id_or_dir.find('/') == std::string::npos && !id_or_dir.empty()) {
    std::string dir = tasks_root + "/" + id_or_dir;
    if (is_file(dir + "/task.json")) return dir;
    throw IoError("unknown task '" + id_or_dir + "' (no " + dir + "/task.json)");
  }
  throw IoError(id_or_dir + ": not a task directory (no task.json)");
}

}  // namespace nki
