// One training episode as the exporters and validators see it, independent of the output format:
// the system prompt, the conversation (user / assistant with tool calls / tool results), the
// tools offered, the kernel it ends with, and where it came from.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/message.h"

namespace nki::train {

// A kernel the model submitted on the way, with what the tool said (for preference pairs).
struct Attempt {
  int turn = 0;
  std::string code;
  bool passed = false;
  std::string failure;  // "compile_error", "mismatch", ... ("none" when passed)
};

struct TrainingRecord {
  std::string id;           // stable within an export: source file + sample, or generator + task
  std::string task_id;
  std::string task_dir;     // the task directory it was resolved to (empty: unknown task)
  std::string provenance;   // "template", "repair", "model:NAME"
  std::string mode;         // "agent", "multi-turn", "single-shot"
  // The NKI dialect its kernels are read as: the transcript header's `nki` (absent: 2.24); the
  // generated template and repair episodes are 2.24. The validators check the kernels in it.
  std::string nki = "2.24";
  std::string system;
  std::vector<agent::Message> messages;  // without the system prompt
  std::vector<agent::ToolSpec> tools;    // offered tools (agent mode); empty otherwise
  std::string final_kernel;              // the kernel the episode ends with
  bool episode_passed = false;           // the source's own verdict
  std::vector<Attempt> attempts;         // every kernel submitted, in order
  std::string detail;                    // generator details, e.g. "mutation=missing_store"
  // Filled by the truncation step: characters cut from tool results and the estimated tokens.
  long long cut_chars = 0;
};

enum class Format { OpenAI, ShareGPT, Dpo };
const char* format_name(Format f);
// "openai", "sharegpt", "dpo"; throws std::invalid_argument otherwise.
Format format_from_name(const std::string& name);

// OpenAI chat format (TRL SFTTrainer's conversational "messages" + "tools" columns):
// {"messages":[{"role":"system"...},{"role":"assistant","content":...,"tool_calls":[{"id",
// "type":"function","function":{"name","arguments"}}]},{"role":"tool","tool_call_id",
// "content"}...], "tools":[{"type":"function","function":{...}}], "task_id", "provenance", ...}
nlohmann::ordered_json to_openai(const TrainingRecord& r);
// ShareGPT (LLaMA-Factory "sharegpt" with function calling): "conversations" of
// human / gpt / function_call / observation turns, "system", "tools" (JSON text).
nlohmann::ordered_json to_sharegpt(const TrainingRecord& r);
// A TRL DPOTrainer conversational pair: "prompt" (system + task message), "chosen" (an
// assistant reply with the passing kernel), "rejected" (one with a failing kernel).
nlohmann::ordered_json to_dpo(const TrainingRecord& r, const std::string& rejected_code);

// The assistant reply text that carries a kernel in a fenced block.
std::string fenced_kernel(const std::string& code);

// The whole record's text length in characters (system, messages, tool arguments) and the
// token estimate used for the budget: one token per 4 characters, rounded up (no tokenizer is
// installed; the estimate matches the agent's usage guard).
long long record_chars(const TrainingRecord& r);
long long estimate_tokens(long long chars);

}  // namespace nki::train
