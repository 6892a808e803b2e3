// nkiagent solve / bench: the agent layer and the benchmark runner, with the simulator-backed
// tools and episode function from src/toolchain/agent_glue.h.
#include <cstring>
#include <string>
#include <vector>

#include "agent/solve_command.h"
#include "cli/commands.h"
#include "eval/commands.h"
#include "task/task_spec.h"
#include "toolchain/agent_glue.h"

namespace nki::cli {

namespace {

// Removes `--name VALUE` / `--name=VALUE` options that only this layer understands.
std::vector<char*> take_option(int argc, char** argv, const char* name, std::string* value) {
  std::vector<char*> rest;
  std::string flag = std::string("--") + name;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == flag && i + 1 < argc) {
      *value = argv[++i];
    } else if (a.rfind(flag + "=", 0) == 0) {
      *value = a.substr(flag.size() + 1);
    } else {
      rest.push_back(argv[i]);
    }
  }
  return rest;
}

}  // namespace

int cmd_solve(int argc, char** argv) {
  std::string tasks_dir;
  std::vector<char*> rest = take_option(argc, argv, "tasks-dir", &tasks_dir);
  if (tasks_dir.empty()) tasks_dir = default_tasks_root();
  return agent::cmd_solve(static_cast<int>(rest.size()), rest.data(), toolchain::solve_deps(tasks_dir));
}

int cmd_bench(int argc, char** argv) {
  toolchain::EpisodeSettings s;
  std::string timeout;
  std::vector<char*> rest = take_option(argc, argv, "base-url", &s.base_url);
  rest = take_option(static_cast<int>(rest.size()), rest.data(), "timeout", &timeout);
  rest = take_option(static_cast<int>(rest.size()), rest.data(), "replay-dir", &s.replay_dir);
  if (!timeout.empty()) s.timeout_s = std::stod(timeout);
  s.tasks_root = default_tasks_root();
  for (size_t i = 0; i + 1 < rest.size(); ++i)
    if (std::strcmp(rest[i], "--tasks-dir") == 0) s.tasks_root = rest[i + 1];
  return eval::cmd_bench(static_cast<int>(rest.size()), rest.data(), toolchain::make_episode_fn(s));
}

}  // namespace nki::cli
