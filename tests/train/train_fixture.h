// Shared by the train tests: task directories written to a temporary folder, golden data
// computed in C++ (so no test needs PyTorch), and kernels run in this process.
#pragma once

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "task/task_spec.h"
#include "task/verify.h"
#include "train/validators.h"

namespace nki::train::testing {

inline std::string temp_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() / ("nki_train_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d.string();
}

// Writes <root>/<id>/task.json (+ reference.py) with float32 inputs of `shapes` and one output.
inline std::string write_task(const std::string& root, const std::string& id, const std::string& family,
                              const std::vector<std::vector<int64_t>>& shapes, const std::vector<int64_t>& out_shape,
                              const std::string& reference = "import torch\n\nclass Model(torch.nn.Module):\n    def forward(self, *xs):\n        return xs[0]\n") {
  std::string dir = root + "/" + id;
  std::filesystem::create_directories(dir);
  auto dims = [](const std::vector<int64_t>& s) {
    std::string t = "[";
    for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
    return t + "]";
  };
  std::string inputs;
  const char* names[] = {"a", "b", "c"};
  for (size_t i = 0; i < shapes.size(); ++i)
    inputs += std::string(i ? ", " : "") + "{\"name\": \"" + names[i] + "\", \"shape\": " + dims(shapes[i]) +
              ", \"dtype\": \"float32\", \"dist\": {\"kind\": \"normal\", \"mean\": 0, \"std\": 1}}";
  std::ofstream(dir + "/task.json") << "{\"id\": \"" << id << "\", \"level\": 1, \"category\": \"test\", \"tags\": [],"
                                    << " \"description\": \"test\", \"origin\": \"test\", \"family\": \"" << family
                                    << "\", \"init_args\": [], \"inputs\": [" << inputs
                                    << "], \"parameters\": [], \"buffers\": [], \"outputs\": [{\"shape\": " << dims(out_shape)
                                    << ", \"dtype\": \"float32\"}], \"tolerance\": null, \"seed\": 7, \"trials\": 1}";
  std::ofstream(dir + "/reference.py") << reference;
  return dir;
}

inline HostTensor f32(std::vector<int64_t> shape, const std::vector<float>& v) {
  HostTensor t;
  t.shape = std::move(shape);
  t.data.resize(v.size() * 4);
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

// Golden data: normal inputs seeded by the trial seed, expected = fn(inputs) (row-major floats).
using ReferenceFn = std::function<std::vector<float>(const std::vector<std::vector<float>>& in, const TaskSpec& t)>;

inline GoldenProvider golden_of(ReferenceFn fn) {
  return [fn](const TaskSpec& t, int trial) {
    GoldenTrial g;
    g.trial = trial;
    g.seed = t.trial_seed(trial);
    std::mt19937 rng(static_cast<uint32_t>(g.seed));
    std::normal_distribution<float> nd(0.f, 1.f);
    std::vector<std::vector<float>> in;
    for (const TensorSpec& s : t.inputs) {
      std::vector<float> v(static_cast<size_t>(s.element_count()));
      for (float& x : v) x = nd(rng);
      g.arg_names.push_back(s.name);
      g.args.push_back(f32(s.shape, v));
      in.push_back(std::move(v));
    }
    g.expected = {f32(t.outputs[0].shape, fn(in, t))};
    return g;
  };
}

inline std::vector<float> add_ref(const std::vector<std::vector<float>>& in, const TaskSpec&) {
  std::vector<float> o(in[0].size());
  for (size_t i = 0; i < o.size(); ++i) o[i] = in[0][i] + in[1][i];
  return o;
}

// Kernels run in this process: fast, and the test kernels are ours.
inline CheckSettings in_process(GoldenProvider g, int fresh = 2) {
  CheckSettings s;
  s.run.isolation.enabled = false;
  s.golden = std::move(g);
  s.fresh_trials = fresh;
  return s;
}

}  // namespace nki::train::testing
