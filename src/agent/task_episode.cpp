#include "agent/task_episode.h"

#include <memory>

namespace nki::agent {

EpisodeResult run_task_episode(const TaskEpisode& e, ModelClient& model, KernelTools& tools) {
  EpisodePrompts prompts = build_episode_prompts(resolve_prompts_dir(e.prompts_dir), e.task, e.mode, e.max_turns, e.nki);
  EpisodeConfig cfg;
  cfg.mode = e.mode;
  cfg.max_turns = e.max_turns;
  cfg.max_cost_usd = e.max_cost_usd;
  cfg.max_wall_s = e.max_wall_s;
  cfg.task_id = e.task.id;
  cfg.model_label = e.model_label;
  cfg.note = e.note;
  cfg.nki = e.nki;
  std::unique_ptr<TranscriptWriter> writer;
  if (!e.transcript_path.empty()) writer = std::make_unique<TranscriptWriter>(e.transcript_path);
  return run_episode(cfg, prompts, model, tools, writer.get());
}

}  // namespace nki::agent
