#include "fuzz/cli/scenarios.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "base/npy.h"
#include "tests/cli/child_process.h"

namespace nki::cli::fuzz {

namespace {

namespace fs = std::filesystem;

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

// l1_add_fp32 takes two float32 [256, 1024] arrays.
void write_input_array(const std::string& path) {
  HostTensor t;
  t.dtype = DType::Float32;
  t.shape = {256, 1024};
  t.data.assign(256 * 1024 * 4, 0);
  write_npy(path, t);
}

}  // namespace

std::vector<std::string> Invocation::args(const std::vector<bool>& inline_values) const {
  std::vector<std::string> a = {command};
  a.insert(a.end(), positionals.begin(), positionals.end());
  for (size_t i = 0; i < options.size(); ++i) {
    const auto& [name, value] = options[i];
    if (!value) {
      a.push_back("--" + name);
    } else if (i < inline_values.size() && inline_values[i]) {
      a.push_back("--" + name + "=" + *value);
    } else {
      a.push_back("--" + name);
      a.push_back(*value);
    }
  }
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

Scratch make_scratch(const std::string& root, const std::string& source_dir, const std::string& nkiagent) {
  Scratch s;
  fs::create_directories(root);
  ScratchPaths& p = s.paths;
  p.dir = fs::canonical(root).string();
  p.kernel = p.dir + "/add_kernel.py";
  p.npy = p.dir + "/a.npy";
  p.corrupt_npy = p.dir + "/corrupt.npy";
  p.empty_file = p.dir + "/empty";
  p.text_file = p.dir + "/notes.txt";
  p.overwritable = p.dir + "/overwritable.txt";
  fs::copy_file(source_dir + "/solutions/l1_add_fp32.py", p.kernel, fs::copy_options::overwrite_existing);
  write_input_array(p.npy);
  write_text(p.corrupt_npy, "\x93NUMPY\x01\x00\x10\x00{'descr': '<f4'");
  write_text(p.empty_file, "");
  write_text(p.text_file, "not a kernel, an array or JSON\n");
  write_text(p.overwritable, "output options may overwrite this file\n");

  s.tasks_dir = p.dir + "/tasks";
  fs::create_directories(s.tasks_dir + "/subsets");
  fs::copy(source_dir + "/tasks/l1_add_fp32", s.tasks_dir + "/l1_add_fp32",
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  write_text(s.tasks_dir + "/subsets/fuzz.txt", "l1_add_fp32\n");
  // The default subset of `tasks`: one task here, so a dropped --subset stays quick.
  write_text(s.tasks_dir + "/subsets/ablation60.txt", "l1_add_fp32\n");
  fs::create_directories(p.dir + "/solutions");  // TASKS_DIR/../solutions, for verify-solutions
  fs::copy_file(source_dir + "/solutions/l1_add_fp32.py", p.dir + "/solutions/l1_add_fp32.py",
                fs::copy_options::overwrite_existing);
  s.replay_dir = p.dir + "/replays";
  fs::create_directories(s.replay_dir);
  fs::copy_file(source_dir + "/examples/replays/l1_add_fp32_compile_fix.jsonl", s.replay_dir + "/l1_add_fp32.jsonl",
                fs::copy_options::overwrite_existing);
  s.work_dir = p.dir + "/work";
  fs::create_directories(s.work_dir);

  s.shared_inputs = {p.kernel,
                     p.npy,
                     p.corrupt_npy,
                     p.empty_file,
                     p.text_file,
                     s.tasks_dir + "/l1_add_fp32/task.json",
                     s.tasks_dir + "/l1_add_fp32/reference.py",
                     s.tasks_dir + "/subsets/fuzz.txt",
                     p.dir + "/solutions/l1_add_fp32.py",
                     s.replay_dir + "/l1_add_fp32.jsonl"};

  s.run_dir = p.dir + "/run";
  testing::ChildOptions o;
  o.cwd = s.work_dir;
  o.timeout_s = 600;  // the first verify may generate golden data with PyTorch
  o.set_env = child_env(s);
  o.unset_env = child_unset_env();
  testing::ChildResult r = testing::run_child(
      {nkiagent, "bench", "--model", "scripted:fuzz", "--mode", "agent", "--subset", "fuzz", "--tasks-dir",
       s.tasks_dir, "--replay-dir", s.replay_dir, "--run-dir", s.run_dir},
      o);
  if (!r.exited || r.exit_code != 0)
    throw std::runtime_error("setting up the scratch run failed (" + r.describe() + "): " + r.err);
  return s;
}

std::vector<Invocation> base_invocations(const Scratch& s, const std::string& unique) {
  const ScratchPaths& p = s.paths;
  const std::string out = s.work_dir + "/" + unique;
  const std::string arg = "256x1024:float32";
  return {
      {"check", {p.kernel}, {{"arg", arg}, {"arg", arg}}, {}},
      {"ir", {p.kernel}, {{"arg", arg}, {"arg", arg}, {"target", "trn2"}}, {}},
      {"run", {p.kernel}, {{"input", p.npy}, {"input", p.npy}, {"out-dir", out}, {"json", std::nullopt}}, {}},
      {"verify", {p.kernel}, {{"task", "l1_add_fp32"}, {"tasks-dir", s.tasks_dir}, {"trials", "1"}}, {}},
      {"tasks", {"list"}, {{"subset", "fuzz"}, {"tasks-dir", s.tasks_dir}}, {}},
      {"tasks", {"show", "l1_add_fp32"}, {{"tasks-dir", s.tasks_dir}}, {}},
      {"tasks", {"verify-solutions"}, {{"subset", "fuzz"}, {"tasks-dir", s.tasks_dir}, {"trials", "1"}}, {}},
      {"tasks", {"audit"}, {{"subset", "fuzz"}, {"tasks-dir", s.tasks_dir}, {"trials", "1"}}, {}},
      {"solve",
       {},
       {{"task", "l1_add_fp32"}, {"replay", s.replay_dir + "/l1_add_fp32.jsonl"}, {"tasks-dir", s.tasks_dir},
        {"out", out}},
       {}},
      {"bench",
       {},
       {{"model", "scripted:fuzz"}, {"mode", "agent"}, {"subset", "fuzz"}, {"tasks-dir", s.tasks_dir},
        {"replay-dir", s.replay_dir}, {"run-dir", out}},
       {}},
      {"merge", {out, s.run_dir}, {}, {}},
      {"report", {s.run_dir}, {{"out", out + ".html"}, {"md", out + ".md"}}, {}},
  };
}

std::vector<std::pair<std::string, std::string>> child_env(const Scratch& s) {
  return {{"NKI_TASKS_DIR", s.tasks_dir}, {"NKI_AGENT_MAX_ATTEMPTS", "1"}, {"NKI_AGENT_RETRY_AFTER_CAP", "0"}};
}

std::vector<std::string> child_unset_env() {
  return {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"};
}

}  // namespace nki::cli::fuzz
