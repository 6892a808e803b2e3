// Prompt text lives in prompts/*.md (editable without recompiling); this file loads it and fills
// {{placeholder}}s.
#pragma once

#include <map>
#include <string>

#include "agent/tools.h"

namespace nki::agent {

// prompts directory: `flag` if non-empty, else $NKI_PROMPTS_DIR, else the source tree's prompts/.
std::string resolve_prompts_dir(const std::string& flag);

// Replaces every {{name}} with vars.at(name). A placeholder without a value throws
// std::invalid_argument (a typo in a prompt file must not reach the model silently).
std::string render_template(const std::string& text, const std::map<std::string, std::string>& vars);

// Removes every <!-- ... --> comment (notes for maintainers, e.g. the doc page a primer rule comes
// from); a comment alone on its line(s) removes those lines. An unterminated "<!--" stays.
std::string strip_prompt_comments(const std::string& text);

// Reads <dir>/<name> without its comments (strip_prompt_comments); throws nki::IoError naming
// the file when it is missing.
std::string read_prompt_file(const std::string& dir, const std::string& name);

// The texts one episode needs, fully rendered.
struct EpisodePrompts {
  std::string system;           // primer + rank section + mode rules
  std::string task;             // first user message
  std::string review_followup;  // multi-turn: asks for a reviewed, improved kernel
  std::string no_code_followup; // any mode with turns left: the reply contained no kernel
  std::string feedback;         // agent mode template for harness feedback, with {{result}}
  std::string start_kernel;     // optimize mode: the correct kernel the episode starts from
};

// Which rank section a task gets: rank_2d.md for rank <= 2, rank_3d.md, rank_4d.md for >= 4.
std::string rank_section_file(int max_rank);

// The NKI dialects an episode can be run in (`solve/bench --nki`): the legacy `neuronxcc.nki`
// of SDK 2.24 (the paper's, the default) and the current `nki` 0.6. The files of the prompts
// directory are the 2.24 set; a 0.6 episode reads each file from the `nki-0.6/` subdirectory
// when it is there (the primer and the rank sections, which teach the dialect) and from the top
// level otherwise (the dialect-neutral mode and follow-up texts).
inline constexpr const char* kLegacyNki = "2.24";
inline constexpr const char* kCurrentNki = "0.6";
bool is_episode_nki(const std::string& version);  // "2.24" or "0.6"
// Where a dialect's prompt file `name` lives under `dir`: dir/nki-0.6/name when nki is 0.6 and
// that file exists, else dir/name.
std::string dialect_prompt_path(const std::string& dir, const std::string& nki, const std::string& name);

// Renders every prompt for one episode. Placeholders available to all files: task_id, reference,
// inputs, parameters, buffers, outputs, tolerance, constructor, signature, kernel_name, max_rank,
// max_turns, nki_version, start_kernel and start_note (optimize mode; empty otherwise),
// and (in system.md) rank_section and mode_section. Optimize mode appends optimize_start.md to
// the task message.
// `nki` picks the dialect's files (dialect_prompt_path); it is also the placeholder nki_version.
EpisodePrompts build_episode_prompts(const std::string& prompts_dir, const TaskInfo& task, Mode mode,
                                     int max_turns, const std::string& nki = kLegacyNki);

}  // namespace nki::agent
