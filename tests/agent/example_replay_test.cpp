// The shipped example transcript (examples/replays/l1_add_fp32_compile_fix.jsonl) is generated
// from the script below. This test regenerates it and compares, so a change to the transcript
// format (or to the script) cannot leave the example stale. Prompt text is not compared (the
// header's system prompt and the requests' messages), so editing prompts/ does not break it.
//
// To rewrite the example after an intended change:
//   NKI_UPDATE_GOLDEN=1 ./agent_example_tests
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "agent/agent_loop.h"
#include "agent/replay_client.h"

namespace nki::agent {
namespace {

namespace fs = std::filesystem;

const char* kBroken = R"(import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def kernel(a, b):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    a_tile = nl.load(a)
    b_tile = nl.load(b)
    nl.store(out, value=nl.add(a_tile, b_tile))
    return out
)";

const char* kFixed = R"(import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def kernel(a, b):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    # 128 rows per tile: the partition dimension of an SBUF tile is at most 128.
    for i in nl.affine_range(rows // 128):
        a_tile = nl.load(a[i * 128:(i + 1) * 128, :])
        b_tile = nl.load(b[i * 128:(i + 1) * 128, :])
        nl.store(out[i * 128:(i + 1) * 128, :], value=nl.add(a_tile, b_tile))
    return out
)";

// Tool texts copied from `nkiagent check` / `nkiagent verify` on the two kernels above.
struct RecordedTools : KernelTools {
  ToolResult compile_kernel(const std::string& code) override {
    if (code == kBroken)
      return {false,
              "kernel.py:8:14: error[err_num_partition_exceed_arch_limit]: number of partitions 256 "
              "exceeds architecture limitation of 128\n        a_tile = nl.load(a)\n"
              "                 ^\nhint: tile the partition dimension into chunks of at most "
              "nl.tile_size.pmax (128)",
              FailureKind::CompileError, "err_num_partition_exceed_arch_limit"};
    return {true, "kernel.py: ok: kernel 'kernel' compiles"};
  }
  ToolResult verify_kernel(const std::string& code) override {
    if (code == kBroken) return compile_kernel(code);
    return {true, "PASS l1_add_fp32: 2/2 trials correct (max abs err 0, max rel err 0)"};
  }
};

// A tool-calling reply with illustrative token counts, priced like claude-sonnet-4.
ModelReply reply(const std::string& text, const char* id, const char* tool, const char* code,
                 long long in, long long out) {
  ModelReply r;
  r.message = {Role::Assistant, text, {}, "", "", false};
  r.message.tool_calls.push_back({id, tool, nlohmann::json({{"code", code}}).dump()});
  r.stop_reason = "tool_use";
  r.usage.calls = 1;
  r.usage.input_tokens = in;
  r.usage.output_tokens = out;
  r.usage.cost_usd = (in * 3.0 + out * 15.0) / 1e6;
  return r;
}

TaskInfo add_task() {
  TaskInfo t;
  t.id = "l1_add_fp32";
  t.reference_source =
      "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n    \"\"\"out = a + b\"\"\"\n\n"
      "    def __init__(self):\n        super().__init__()\n\n    def forward(self, a, b):\n        return a + b\n";
  t.inputs = {{"a", "[256, 1024]", "float32"}, {"b", "[256, 1024]", "float32"}};
  t.outputs = {{"out0", "[256, 1024]", "float32"}};
  t.tolerance = "atol=1e-3, rtol=1e-3";
  return t;
}

void write_example(const std::string& path) {
  ReplayClient client(
      {reply("An element-wise add: load both inputs, add, store. Let me compile it first.", "toolu_01",
             "compile_kernel", kBroken, 2630, 170),
       reply("The whole [256, 1024] tensor does not fit one tile: a tile has at most 128 partitions. "
             "I will loop over row blocks of 128 and verify.",
             "toolu_02", "verify_kernel", kFixed, 2950, 240)},
      "anthropic:claude-sonnet-4");
  EpisodeConfig cfg;
  cfg.task_id = "l1_add_fp32";
  cfg.model_label = "anthropic:claude-sonnet-4";
  cfg.note =
      "SCRIPTED EXAMPLE written by the NKI-Agent developers, not a real model run: turn 1 submits a kernel whose tile has 256 partitions (compile error), turn 2 tiles by 128 rows and passes. Token counts and costs are illustrative. The tool texts stored here were copied from `nkiagent check` / `nkiagent verify` output on these two kernels; a replay (`nkiagent solve --task l1_add_fp32 --replay FILE`) recomputes them live.";
  EpisodePrompts p = build_episode_prompts(std::string(NKI_SOURCE_DIR) + "/prompts", add_task(), Mode::Agent, 10);
  RecordedTools tools;
  TranscriptWriter w(path);
  EpisodeResult r = run_episode(cfg, p, client, tools, &w);
  ASSERT_EQ(r.verdict, VerdictKind::Pass);
}

// Drops what legitimately differs between runs or tracks prompts/ edits.
nlohmann::json comparable(nlohmann::json e) {
  e.erase("t");
  if (e["type"] == "header") e.erase("system");
  if (e["type"] == "request") e.erase("new_messages");
  return e;
}

TEST(ExampleReplay, ShippedExampleMatchesItsScript) {
  std::string shipped = std::string(NKI_SOURCE_DIR) + "/examples/replays/l1_add_fp32_compile_fix.jsonl";
  std::string fresh = (fs::temp_directory_path() / ("nki_agent_example_" + std::to_string(::getpid()) + ".jsonl")).string();
  write_example(fresh);
  if (const char* update = std::getenv("NKI_UPDATE_GOLDEN"); update && *update) {
    fs::copy_file(fresh, shipped, fs::copy_options::overwrite_existing);
    GTEST_SKIP() << "rewrote " << shipped;
  }
  auto want = read_transcript(shipped).events;
  auto got = read_transcript(fresh).events;
  fs::remove(fresh);
  ASSERT_EQ(got.size(), want.size()) << "example is stale: rerun with NKI_UPDATE_GOLDEN=1";
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(comparable(got[i]), comparable(want[i]))
        << "line " << i << " differs; if intended, rerun with NKI_UPDATE_GOLDEN=1";
}

}  // namespace
}  // namespace nki::agent
