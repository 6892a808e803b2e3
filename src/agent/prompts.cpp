#include "agent/prompts.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/diagnostic.h"

#ifndef NKI_AGENT_DEFAULT_PROMPTS_DIR
#define NKI_AGENT_DEFAULT_PROMPTS_DIR "prompts"
#endif

namespace nki::agent {
namespace {

std::string tensor_lines(const std::vector<TensorInfo>& tensors) {
  if (tensors.empty()) return "(none)";
  std::string out;
  for (const auto& t : tensors) out += "- " + t.name + ": shape " + t.shape + ", dtype " + t.dtype + "\n";
  out.pop_back();
  return out;
}

}  // namespace

std::string resolve_prompts_dir(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("NKI_PROMPTS_DIR"); env && *env) return env;
  return NKI_AGENT_DEFAULT_PROMPTS_DIR;
}

std::string render_template(const std::string& text, const std::map<std::string, std::string>& vars) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = text.find("{{", pos);
    if (open == std::string::npos) break;
    size_t close = text.find("}}", open + 2);
    if (close == std::string::npos) break;
    std::string name = text.substr(open + 2, close - open - 2);
    auto it = vars.find(name);
    if (it == vars.end()) throw std::invalid_argument("prompt template: no value for {{" + name + "}}");
    out.append(text, pos, open - pos);
    out += it->second;  // substituted text is not rescanned: task sources may contain "{{"
    pos = close + 2;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

std::string read_prompt_file(const std::string& dir, const std::string& name) {
  std::string path = dir + "/" + name;
  std::ifstream in(path);
  if (!in) throw IoError("cannot read prompt file '" + path + "' (set --prompts or NKI_PROMPTS_DIR)");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string rank_section_file(int max_rank) {
  if (max_rank <= 2) return "rank_2d.md";
  if (max_rank == 3) return "rank_3d.md";
  return "rank_4d.md";
}

EpisodePrompts build_episode_prompts(const std::string& dir, const TaskInfo& task, Mode mode,
                                     int max_turns) {
  std::string mode_file = std::string("mode_") + (mode == Mode::Agent        ? "agent"
                                                   : mode == Mode::MultiTurn ? "multi_turn"
                                                                             : "single_shot") + ".md";
  std::map<std::string, std::string> vars = {
      {"task_id", task.id},
      {"reference", task.reference_source},
      {"inputs", tensor_lines(task.inputs)},
      {"parameters", tensor_lines(task.params)},
      {"buffers", tensor_lines(task.buffers)},
      {"outputs", tensor_lines(task.outputs)},
      {"tolerance", task.tolerance},
      {"signature", required_signature(task)},
      {"kernel_name", task.kernel_name},
      {"max_rank", std::to_string(task.max_rank)},
      {"max_turns", std::to_string(mode == Mode::SingleShot ? 1 : max_turns)},
  };
  vars["rank_section"] = render_template(read_prompt_file(dir, rank_section_file(task.max_rank)), vars);
  vars["mode_section"] = render_template(read_prompt_file(dir, mode_file), vars);

  EpisodePrompts p;
  p.system = render_template(read_prompt_file(dir, "system.md"), vars);
  p.task = render_template(read_prompt_file(dir, "task.md"), vars);
  p.review_followup = render_template(read_prompt_file(dir, "followup_review.md"), vars);
  p.no_code_followup = render_template(read_prompt_file(dir, "followup_no_code.md"), vars);
  vars["result"] = "{{result}}";  // filled per turn by the loop
  p.feedback = render_template(read_prompt_file(dir, "followup_feedback.md"), vars);
  return p;
}

}  // namespace nki::agent
