// Per-turn overhead of the agent loop itself, without any model latency: prompt state,
// code extraction, tool dispatch, transcript lines (written and flushed to a temp file) and the
// provider wire JSON (request encoding + response decoding) for a conversation that grows turn
// by turn. Not a timed unit test: run it and read the numbers.
//
//   agent_overhead [episodes=200] [turns=10]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/agent_loop.h"
#include "agent/anthropic_client.h"
#include "agent/openai_client.h"
#include "agent/replay_client.h"

using namespace nki::agent;
using Clock = std::chrono::steady_clock;

namespace {

// A kernel of realistic size (~1.5 KB) so extraction and JSON costs are representative.
std::string sample_kernel() {
  std::string k = "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n@nki.jit\n"
                  "def kernel(a, b):\n    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n";
  for (int i = 0; i < 20; ++i)
    k += "    t" + std::to_string(i) + " = nl.load(a[" + std::to_string(i) + " * 128:(" +
         std::to_string(i) + " + 1) * 128, :])  # tile\n";
  return k + "    return out\n";
}

class NoopTools : public KernelTools {
 public:
  ToolResult compile_kernel(const std::string&) override { return {true, "OK"}; }
  ToolResult verify_kernel(const std::string&) override {
    return {false, "MISMATCH: output 0 differs at [3, 7]", FailureKind::Mismatch};
  }
};

std::vector<ModelReply> scripted(int turns, const std::string& kernel) {
  std::vector<ModelReply> replies;
  for (int t = 0; t < turns; ++t) {
    ModelReply r;
    r.message.role = Role::Assistant;
    r.message.content = "Trying a new tiling.";
    r.message.tool_calls.push_back({"call_" + std::to_string(t), t % 2 ? "verify_kernel" : "compile_kernel",
                                    nlohmann::json({{"code", kernel}}).dump()});
    r.usage.calls = 1;
    r.usage.input_tokens = 3000 + 500 * t;
    r.usage.output_tokens = 400;
    replies.push_back(std::move(r));
  }
  return replies;
}

double us_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  int episodes = argc > 1 ? std::atoi(argv[1]) : 200;
  int turns = argc > 2 ? std::atoi(argv[2]) : 10;
  if (episodes < 1 || turns < 1) {
    std::fprintf(stderr, "usage: agent_overhead [episodes>=1] [turns>=1]\n");
    return 2;
  }
  std::string kernel = sample_kernel();
  EpisodePrompts prompts;
  prompts.system = std::string(6000, 's');  // about the size of the shipped primer
  prompts.task = std::string(2000, 't');
  prompts.feedback = "{{result}}";
  std::string path = (std::filesystem::temp_directory_path() / "nki_agent_overhead.jsonl").string();

  // 1. The loop with transcript: everything the agent does per turn except the model call.
  auto t0 = Clock::now();
  int total_turns = 0;
  for (int e = 0; e < episodes; ++e) {
    ReplayClient model(scripted(turns, kernel), "scripted");
    NoopTools tools;
    EpisodeConfig cfg;
    cfg.max_turns = turns;
    // A fresh file per episode, as in real runs: re-truncating one file would measure ext4's
    // flush-on-truncate (auto_da_alloc) instead of our own overhead.
    std::string episode_path = path + "." + std::to_string(e);
    {
      TranscriptWriter writer(episode_path);
      total_turns += run_episode(cfg, prompts, model, tools, &writer).turns;
    }
    std::filesystem::remove(episode_path);
  }
  double loop_us = us_since(t0) / total_turns;

  // 2. Wire JSON per turn: encode the whole conversation so far, decode one reply.
  Conversation conv;
  conv.system = prompts.system;
  conv.tools = kernel_tool_specs();
  conv.messages.push_back({Role::User, prompts.task, {}, "", "", false});
  std::vector<ModelReply> replies = scripted(turns, kernel);
  std::string openai_reply = nlohmann::json({{"choices", {{{"message", {{"role", "assistant"},
      {"content", "x"}, {"tool_calls", {{{"id", "c"}, {"type", "function"},
      {"function", {{"name", "verify_kernel"}, {"arguments", replies[0].message.tool_calls[0].arguments}}}}}}}}}}}}).dump();
  std::string anthropic_reply = nlohmann::json({{"content", {{{"type", "tool_use"}, {"id", "c"},
      {"name", "verify_kernel"}, {"input", {{"code", kernel}}}}}}}).dump();
  ClientConfig cc;
  cc.model = "m";
  double openai_us = 0, anthropic_us = 0;
  size_t last_request_bytes = 0;
  for (int t = 0; t < turns; ++t) {
    conv.messages.push_back(replies[t].message);
    conv.messages.push_back({Role::Tool, "MISMATCH: output 0 differs", {}, "call", "verify_kernel", true});
    const int reps = std::max(1, episodes / 4);
    auto a = Clock::now();
    for (int r = 0; r < reps; ++r) {
      last_request_bytes = openai_wire::build_request(cc, conv).dump().size();
      openai_wire::parse_response(openai_reply);
    }
    openai_us += us_since(a) / reps;
    a = Clock::now();
    for (int r = 0; r < reps; ++r) {
      anthropic_wire::build_request(cc, conv).dump();
      anthropic_wire::parse_response(anthropic_reply);
    }
    anthropic_us += us_since(a) / reps;
  }

  std::printf("agent_overhead: %d episodes x %d turns, kernel %zu bytes\n", episodes, turns, kernel.size());
  std::printf("  loop + tools + transcript (flushed) : %8.1f us/turn\n", loop_us);
  std::printf("  OpenAI wire encode+decode           : %8.1f us/turn (mean over turns 1..%d; last request %zu bytes)\n",
              openai_us / turns, turns, last_request_bytes);
  std::printf("  Anthropic wire encode+decode        : %8.1f us/turn\n", anthropic_us / turns);
  std::printf("  total agent-side overhead           : %8.1f us/turn (OpenAI), vs model latency of seconds\n",
              loop_us + openai_us / turns);
  return 0;
}
