// The episode function of `nkiagent bench`: the agent on the simulator (src/toolchain).
#include <filesystem>

#include "agent/model_factory.h"
#include "base/diagnostic.h"
#include "cli/cmd_bench.h"
#include "cli/common.h"
#include "toolchain/agent_glue.h"

namespace nki::cli {

eval::EpisodeFn simulator_episodes(const ParsedOptions& o) {
  toolchain::EpisodeSettings s;
  s.tasks_root = tasks_root_from(o);
  s.base_url = o.text("base-url");
  s.timeout_s = *o.real("timeout");
  s.replay_dir = o.text("replay-dir");
  s.tools = agent::parse_tool_offer(tools_list(o, parse_mode(o.text("mode")).value_or(Mode::Agent)));
  s.solutions_dir = o.text("solutions-dir");
  s.target = target_from(o);
  s.nki = o.text("nki");
  if (!s.replay_dir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(s.replay_dir, ec))
      throw IoError("--replay-dir '" + s.replay_dir + "' is not a directory");
  } else {
    // Every episode builds its own client the same way; building one here turns a missing key
    // or an unknown provider into one configuration error instead of a crash per episode.
    agent::ClientOptions co;
    co.model_spec = o.text("model");
    co.base_url = s.base_url;
    co.timeout_s = s.timeout_s;
    agent::make_model_client(co);
  }
  return toolchain::make_episode_fn(s);
}

}  // namespace nki::cli
