#include "agent/prompts.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/diagnostic.h"

#ifndef NKI_AGENT_DEFAULT_PROMPTS_DIR
#define NKI_AGENT_DEFAULT_PROMPTS_DIR "prompts"
#endif

namespace nki::agent {
namespace {

// One line per kernel argument, numbered by position (the harness passes arguments by position);
// `first` is the position of the group's first tensor.
std::string arg_lines(const std::vector<TensorInfo>& tensors, const std::vector<std::string>& ids,
                      size_t first, const char* kind) {
  if (tensors.empty()) return "(none)";
  std::string out;
  size_t pos = first;
  for (const auto& t : tensors) {
    const std::string& id = ids.at(pos);
    out += std::to_string(pos++) + ". `" + id + "`";
    if (id != t.name) out += " (the reference's " + std::string(kind) + " `" + t.name + "`)";
    out += ": shape " + t.shape + ", dtype " + t.dtype + "\n";
  }
  out.pop_back();
  return out;
}

std::string output_lines(const std::vector<TensorInfo>& tensors) {
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
  return strip_prompt_comments(ss.str());
}

std::string rank_section_file(int max_rank) {
  if (max_rank <= 2) return "rank_2d.md";
  if (max_rank == 3) return "rank_3d.md";
  return "rank_4d.md";
}

bool is_episode_nki(const std::string& version) { return version == kLegacyNki || version == kCurrentNki; }

std::string dialect_prompt_path(const std::string& dir, const std::string& nki, const std::string& name) {
  if (nki == kCurrentNki) {
    std::string override_path = dir + "/nki-" + nki + "/" + name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(override_path, ec)) return override_path;
  }
  return dir + "/" + name;
}

std::string strip_prompt_comments(const std::string& text) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = text.find("<!--", pos);
    if (open == std::string::npos) break;
    size_t close = text.find("-->", open + 4);
    if (close == std::string::npos) break;  // an unterminated comment is left as text
    size_t end = close + 3;
    // A comment alone on its line(s) takes its line with it, so no blank line is left behind.
    size_t line_start = text.rfind('\n', open == 0 ? 0 : open - 1);
    line_start = line_start == std::string::npos || open == 0 ? 0 : line_start + 1;
    size_t line_end = text.find('\n', end);
    bool blank_before = text.find_first_not_of(" \t", line_start) >= open;
    size_t after = line_end == std::string::npos ? text.size() : line_end;
    bool blank_after = text.find_first_not_of(" \t", end) >= after;
    if (blank_before && blank_after && line_start >= pos) {
      out.append(text, pos, line_start - pos);
      pos = line_end == std::string::npos ? text.size() : line_end + 1;
    } else {
      out.append(text, pos, open - pos);
      pos = end;
    }
  }
  out.append(text, pos, std::string::npos);
  return out;
}

EpisodePrompts build_episode_prompts(const std::string& dir, const TaskInfo& task, Mode mode,
                                     int max_turns, const std::string& nki) {
  if (!is_episode_nki(nki))
    throw std::invalid_argument("no prompts for NKI " + nki + " (episodes run in " + kLegacyNki + " or " + kCurrentNki + ")");
  // Each file from the dialect's set; read_prompt_file takes (dir, name), so split the path.
  auto read = [&](const std::string& name) {
    std::string path = dialect_prompt_path(dir, nki, name);
    return read_prompt_file(std::filesystem::path(path).parent_path().string(), name);
  };
  const std::vector<std::string> ids = task_arg_names(task);
  std::string mode_file = std::string("mode_") + (mode == Mode::Agent        ? "agent"
                                                   : mode == Mode::MultiTurn ? "multi_turn"
                                                   : mode == Mode::Optimize  ? "optimize"
                                                                             : "single_shot") + ".md";
  std::map<std::string, std::string> vars = {
      {"task_id", task.id},
      {"reference", task.reference_source},
      {"inputs", arg_lines(task.inputs, ids, 0, "forward() input")},
      {"parameters", arg_lines(task.params, ids, task.inputs.size(), "parameter")},
      {"buffers", arg_lines(task.buffers, ids, task.inputs.size() + task.params.size(), "buffer")},
      {"outputs", output_lines(task.outputs)},
      {"tolerance", task.tolerance},
      {"constructor", task.constructor.empty() ? "Model()" : task.constructor},
      {"signature", required_signature(task)},
      {"kernel_name", task.kernel_name},
      {"max_rank", std::to_string(task.max_rank)},
      {"max_turns", std::to_string(mode == Mode::SingleShot ? 1 : max_turns)},
      {"nki_version", nki},
      {"start_kernel", task.start_kernel},
      {"start_note", task.start_note},
  };
  vars["rank_section"] = render_template(read(rank_section_file(task.max_rank)), vars);
  vars["mode_section"] = render_template(read(mode_file), vars);

  EpisodePrompts p;
  p.system = render_template(read("system.md"), vars);
  p.task = render_template(read("task.md"), vars);
  if (mode == Mode::Optimize) {
    if (task.start_kernel.empty())
      throw std::invalid_argument("optimize mode needs a starting kernel (the task's reference solution or --start)");
    p.task += "\n" + render_template(read("optimize_start.md"), vars);
    p.start_kernel = task.start_kernel;
  }
  p.review_followup = render_template(read("followup_review.md"), vars);
  p.no_code_followup = render_template(read("followup_no_code.md"), vars);
  vars["result"] = "{{result}}";  // filled per turn by the loop
  p.feedback = render_template(read("followup_feedback.md"), vars);
  return p;
}

}  // namespace nki::agent
