#include <dirent.h>

#include <string>

#include <gtest/gtest.h>

#include "base/diagnostic.h"
#include "task/task_spec.h"

namespace nki {
namespace {

const char* kValid = R"({
  "id": "t_ok", "level": 1, "category": "activation", "tags": ["elementwise"],
  "description": "d", "origin": "o", "family": "f", "init_args": [3, 1e-5],
  "inputs": [{"name": "x", "shape": [4, 8], "dtype": "bfloat16",
              "dist": {"kind": "normal", "mean": 0.0, "std": 1.0}},
             {"name": "i", "shape": [4], "dtype": "int32",
              "dist": {"kind": "randint", "low": 0, "high": 4}}],
  "parameters": [{"name": "w", "shape": [8], "dtype": "float32",
                  "dist": {"kind": "uniform", "low": -1, "high": 1}}],
  "buffers": [],
  "outputs": [{"shape": [4, 8], "dtype": "bfloat16"}],
  "tolerance": null, "seed": 7, "trials": 3})";

// Replaces the first occurrence of `from` in the valid manifest.
std::string edited(const std::string& from, const std::string& to) {
  std::string s = kValid;
  size_t pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return s.replace(pos, from.size(), to);
}

std::string parse_error(const std::string& text) {
  try {
    parse_task(text, "x/task.json", "");
  } catch (const IoError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TaskSpec, ParsesValidManifest) {
  TaskSpec t = parse_task(kValid, "x/task.json", "t_ok");
  EXPECT_EQ(t.id, "t_ok");
  EXPECT_EQ(t.init_args_json, "[3,1e-05]");
  ASSERT_EQ(t.inputs.size(), 2u);
  EXPECT_EQ(t.inputs[0].dtype, DType::BFloat16);
  EXPECT_EQ(t.inputs[1].dist->kind, Distribution::Kind::RandInt);
  EXPECT_EQ(t.inputs[1].dist->high, 4.0);
  EXPECT_EQ(t.parameters[0].dist->kind, Distribution::Kind::Uniform);
  ASSERT_EQ(t.kernel_args().size(), 3u);
  EXPECT_EQ(t.kernel_args()[2].name, "w");
  EXPECT_FALSE(t.tolerance.has_value());
  EXPECT_EQ(t.trial_seed(2), 9u);
  EXPECT_EQ(t.trials, 3);
}

TEST(TaskSpec, Tolerances) {
  TaskSpec t = parse_task(kValid, "x/task.json", "");
  EXPECT_DOUBLE_EQ(t.tolerance_for(DType::BFloat16, false).atol, 1e-2);
  EXPECT_DOUBLE_EQ(t.tolerance_for(DType::Float16, false).rtol, 5e-3);
  EXPECT_DOUBLE_EQ(t.tolerance_for(DType::Float32, false).atol, 1e-3);
  EXPECT_DOUBLE_EQ(t.tolerance_for(DType::BFloat16, true).atol, 1e-3);
  EXPECT_DOUBLE_EQ(t.tolerance_for(DType::Int32, false).atol, 0.0);
  TaskSpec u = parse_task(edited("\"tolerance\": null", "\"tolerance\": {\"atol\": 0.5, \"rtol\": 0.25}"),
                          "x/task.json", "");
  EXPECT_DOUBLE_EQ(u.tolerance_for(DType::BFloat16, false).atol, 0.5);
  EXPECT_DOUBLE_EQ(u.tolerance_for(DType::BFloat16, false).rtol, 0.25);
  EXPECT_DOUBLE_EQ(u.tolerance_for(DType::BFloat16, true).rtol, 1e-3);
}

TEST(TaskSpec, ErrorsNameFileAndField) {
  EXPECT_NE(parse_error("{not json").find("x/task.json: invalid JSON"), std::string::npos);
  EXPECT_NE(parse_error("[1]").find("top level must be a JSON object"), std::string::npos);
  EXPECT_EQ(parse_error(edited("\"seed\": 7, ", "")),
            "x/task.json: field 'seed': missing");
  EXPECT_EQ(parse_error(edited("\"level\": 1", "\"level\": \"one\"")),
            "x/task.json: field 'level': must be an integer");
  EXPECT_EQ(parse_error(edited("\"level\": 1", "\"level\": 4")),
            "x/task.json: field 'level': must be 1, 2 or 3");
  EXPECT_EQ(parse_error(edited("[4, 8], \"dtype\": \"bfloat16\",", "[4, 0], \"dtype\": \"bfloat16\",")),
            "x/task.json: field 'inputs[0].shape': must be a list of positive integers");
  EXPECT_EQ(parse_error(edited("\"dtype\": \"bfloat16\",", "\"dtype\": \"bf16\",")),
            "x/task.json: field 'inputs[0].dtype': unknown dtype 'bf16'");
  EXPECT_EQ(parse_error(edited("\"kind\": \"normal\"", "\"kind\": \"gauss\"")),
            "x/task.json: field 'inputs[0].dist.kind': unknown distribution 'gauss' (normal, "
            "uniform, randint)");
  EXPECT_EQ(parse_error(edited("\"mean\": 0.0, ", "")),
            "x/task.json: field 'inputs[0].dist.mean': missing");
  EXPECT_EQ(parse_error(edited("\"high\": 4", "\"high\": 0")),
            "x/task.json: field 'inputs[1].dist': randint needs low < high (high is exclusive)");
  EXPECT_EQ(parse_error(edited("\"trials\": 3", "\"trials\": 3, \"trails\": 2")),
            "x/task.json: field 'trails': unknown field (typo?)");
  EXPECT_EQ(parse_error(edited("\"tolerance\": null", "\"tolerance\": {\"atol\": -1, \"rtol\": 0}")),
            "x/task.json: field 'tolerance': atol and rtol must be >= 0");
  EXPECT_EQ(parse_error(edited("\"name\": \"i\"", "\"name\": \"x\"")),
            "x/task.json: field 'inputs[1].name': duplicate name 'x'");
  EXPECT_EQ(parse_error(edited("\"outputs\": [{\"shape\": [4, 8], \"dtype\": \"bfloat16\"}]",
                               "\"outputs\": []")),
            "x/task.json: field 'outputs': a task needs at least one output");
  EXPECT_EQ(parse_error(edited("\"dtype\": \"float32\"", "\"dtype\": \"float8_e4m3\"")),
            "x/task.json: field 'parameters[0].dtype': dtype 'float8_e4m3' is not supported in "
            "tasks (torch 1.13 has no fp8/tf32)");
}

TEST(TaskSpec, DistributionMustFitDtype) {
  // A float tensor cannot use randint, an integer tensor needs randint.
  std::string float_randint = edited(
      "\"dist\": {\"kind\": \"normal\", \"mean\": 0.0, \"std\": 1.0}",
      "\"dist\": {\"kind\": \"randint\", \"low\": 0, \"high\": 3}");
  EXPECT_EQ(parse_error(float_randint),
            "x/task.json: field 'inputs[0].dist.kind': randint is only for integer tensors");
  std::string int_normal = edited("\"kind\": \"randint\", \"low\": 0, \"high\": 4",
                                  "\"kind\": \"normal\", \"mean\": 0, \"std\": 1");
  EXPECT_EQ(parse_error(int_normal),
            "x/task.json: field 'inputs[1].dist.kind': integer tensors need a randint "
            "distribution");
}

TEST(TaskSpec, IdMustMatchDirectory) {
  try {
    parse_task(kValid, "x/task.json", "other");
    FAIL() << "expected an error";
  } catch (const IoError& e) {
    EXPECT_STREQ(e.what(),
                 "x/task.json: field 'id': 't_ok' differs from the directory name 'other'");
  }
}

TEST(TaskSpec, LoadTaskMissingFiles) {
  EXPECT_THROW(load_task("/nonexistent/task_dir"), IoError);
  try {
    resolve_task_dir("no_such_task", "/nonexistent");
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown task 'no_such_task'"), std::string::npos);
  }
}

// Every task in the repository has a valid manifest and a reference.py.
TEST(TaskSpec, AllRepositoryTasksLoad) {
  std::string root = std::string(NKI_SOURCE_DIR) + "/tasks";
  DIR* d = opendir(root.c_str());
  ASSERT_NE(d, nullptr) << root;
  int count = 0;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name.rfind("l", 0) != 0) continue;  // task ids start with the level: l1_, l2_, l3_
    std::string dir = resolve_task_dir(name, root);
    EXPECT_NO_THROW({
      TaskSpec t = load_task(dir);
      EXPECT_EQ(std::to_string(t.level), name.substr(1, 1)) << name;
    }) << name;
    ++count;
  }
  closedir(d);
  EXPECT_GE(count, 20);
}

}  // namespace
}  // namespace nki
