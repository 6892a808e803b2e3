// Renders the prompt of every task in tasks/ and checks that what it tells the model is usable:
// the required signature parses with the project's own Python parser (src/lang) and names one
// parameter per kernel argument, the constructor values and the comparison rule are shown, and
// no template placeholder or maintainer comment reaches the model.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "agent/prompts.h"
#include "base/diagnostic.h"
#include "lang/parser.h"
#include "task/task_spec.h"
#include "toolchain/agent_glue.h"

namespace nki {
namespace {

namespace fs = std::filesystem;

std::string source_dir() { return NKI_SOURCE_DIR; }

std::vector<std::string> all_task_dirs() {
  std::vector<std::string> dirs;
  for (const auto& e : fs::directory_iterator(source_dir() + "/tasks"))
    if (e.is_directory() && fs::exists(e.path() / "task.json")) dirs.push_back(e.path().string());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

// The body of the ```python block after "## Required signature".
std::string signature_block(const std::string& prompt) {
  size_t h = prompt.find("## Required signature");
  if (h == std::string::npos) return {};
  size_t open = prompt.find("```python\n", h);
  if (open == std::string::npos) return {};
  open += 10;
  size_t close = prompt.find("```", open);
  return close == std::string::npos ? std::string() : prompt.substr(open, close - open);
}

TEST(TaskPrompts, EveryTaskRendersACopyableSignature) {
  std::vector<std::string> dirs = all_task_dirs();
  ASSERT_GE(dirs.size(), 60u);  // the benchmark's tasks, not an empty glob
  const std::string prompts = source_dir() + "/prompts";
  int with_renamed_args = 0, with_init_args = 0;
  for (const std::string& dir : dirs) {
    SCOPED_TRACE(dir);
    TaskSpec spec = load_task(dir);
    agent::TaskInfo info = toolchain::task_info(spec);
    agent::EpisodePrompts p = agent::build_episode_prompts(prompts, info, agent::Mode::SingleShot, 1);

    std::string block = signature_block(p.task);
    ASSERT_FALSE(block.empty()) << p.task;
    // The model pastes the block and writes a body under it.
    py::Module m;
    ASSERT_NO_THROW(m = py::parse_module_text("import neuronxcc.nki as nki\n" + block + "    pass\n",
                                               dir + "/signature"))
        << block;
    ASSERT_EQ(m.body.size(), 2u) << block;
    auto* fn = py::as<py::FunctionDef>(m.body[1].get());
    ASSERT_NE(fn, nullptr) << block;
    EXPECT_EQ(fn->decorator_list.size(), 1u);
    std::vector<TensorSpec> args = spec.kernel_args();
    ASSERT_EQ(fn->args.args.size(), args.size()) << block;
    std::set<std::string> distinct;
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& name = fn->args.args[i].arg_name;
      distinct.insert(name);
      // Each parameter is listed at its position, with the reference's name when it differs.
      std::string line = std::to_string(i) + ". `" + name + "`";
      EXPECT_NE(p.task.find(line), std::string::npos) << line;
      if (name != args[i].name) {
        ++with_renamed_args;
        EXPECT_NE(p.task.find("`" + args[i].name + "`"), std::string::npos) << args[i].name;
      }
    }
    EXPECT_EQ(distinct.size(), args.size()) << block;
    EXPECT_NE(p.task.find("passed by position"), std::string::npos);

    // Constructor values: Model(*init_args), spelled as Python.
    EXPECT_NE(p.task.find("`" + info.constructor + "`"), std::string::npos) << info.constructor;
    if (spec.init_args_json != "[]") ++with_init_args;

    // The comparison rule and every output's tolerance.
    EXPECT_NE(p.task.find("runs in float32"), std::string::npos);
    EXPECT_NE(p.task.find("|a - e| <= atol + rtol * |e|"), std::string::npos);
    for (const TensorSpec& o : spec.outputs) {
      Tolerance t = spec.tolerance_for(o.dtype, false);
      std::ostringstream s;
      s << dtype_name(o.dtype) << " outputs atol=" << t.atol << ", rtol=" << t.rtol;
      EXPECT_NE(p.task.find(s.str()), std::string::npos) << s.str();
    }
    for (const std::string* text : {&p.system, &p.task, &p.review_followup, &p.no_code_followup}) {
      EXPECT_EQ(text->find("<!--"), std::string::npos) << "maintainer comment reaches the model";
    }
    EXPECT_EQ(p.system.find("{{"), std::string::npos);
  }
  // The repository has tasks of both kinds: the checks above are not vacuous.
  EXPECT_GT(with_renamed_args, 0);
  EXPECT_GT(with_init_args, 0);
}

TEST(TaskPrompts, ConstructorValuesAreShownAsPython) {
  TaskSpec spec = load_task(source_dir() + "/tasks/l1_rmsnorm_bf16");
  agent::TaskInfo info = toolchain::task_info(spec);
  // The manifest says "init_args": [512, 1e-06] (the hidden size and eps).
  EXPECT_EQ(info.constructor, "Model(512, 1e-06)");
}

TEST(KernelArgNames, MakesLegalDistinctIdentifiers) {
  using agent::kernel_arg_names;
  EXPECT_EQ(kernel_arg_names({"x", "fc.weight", "fc.bias"}),
            (std::vector<std::string>{"x", "fc_weight", "fc_bias"}));
  // Collisions after replacement, keywords, a leading digit and the primer's module aliases.
  EXPECT_EQ(kernel_arg_names({"a.b", "a_b", "lambda", "0.w", "nl", "np", ""}),
            (std::vector<std::string>{"a_b", "a_b_", "lambda_", "_0_w", "nl_", "np_", "_"}));
  for (const std::string& n : kernel_arg_names({"layers.0.mlp.weight", "ln-1", "from"})) {
    EXPECT_NO_THROW(py::parse_module_text("def k(" + n + "):\n    pass\n")) << n;
  }
}

TEST(PromptComments, AreStrippedWithTheirLines) {
  using agent::strip_prompt_comments;
  EXPECT_EQ(strip_prompt_comments("a\n<!-- doc: x.rst -->\nb\n"), "a\nb\n");
  EXPECT_EQ(strip_prompt_comments("a\n  <!-- two\n lines -->\nb"), "a\nb");
  EXPECT_EQ(strip_prompt_comments("rule <!-- cite --> here\n"), "rule  here\n");
  EXPECT_EQ(strip_prompt_comments("<!--x-->\n<!--y-->\nz"), "z");
  EXPECT_EQ(strip_prompt_comments("keep <!-- unterminated"), "keep <!-- unterminated");
}

TEST(PromptComments, NoPromptFileLeaksOne) {
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(source_dir() + "/prompts")) {
    if (e.path().extension() != ".md") continue;
    ++files;
    std::string text = agent::read_prompt_file(e.path().parent_path().string(), e.path().filename().string());
    EXPECT_EQ(text.find("<!--"), std::string::npos) << e.path();
    EXPECT_EQ(text.find("-->"), std::string::npos) << e.path();
  }
  EXPECT_GT(files, 15);  // both dialects' sets, not an empty walk
}

// A 0.6 episode reads the current dialect's primer, rank guides and review follow-up from
// prompts/nki-0.6/, and the shared files (task, modes, feedback) from the top level; nothing
// of the legacy dialect's spelling reaches it. The 2.24 prompts are unchanged by the option.
TEST(TaskPrompts, CurrentDialectEpisodesReadTheirOwnPrimer) {
  const std::string prompts = source_dir() + "/prompts";
  int ranks_seen = 0;
  std::set<int> ranks;
  for (const std::string& dir : all_task_dirs()) {
    agent::TaskInfo info = toolchain::task_info(load_task(dir));
    if (!ranks.insert(std::min(info.max_rank, 4)).second) continue;  // one task per rank guide
    ++ranks_seen;
    SCOPED_TRACE(dir);
    for (agent::Mode mode : {agent::Mode::Agent, agent::Mode::MultiTurn, agent::Mode::SingleShot}) {
      agent::EpisodePrompts cur = agent::build_episode_prompts(prompts, info, mode, 5, "0.6");
      agent::EpisodePrompts old = agent::build_episode_prompts(prompts, info, mode, 5, "2.24");
      EXPECT_NE(cur.system.find("import nki.language as nl"), std::string::npos);
      EXPECT_EQ(cur.system.find("import neuronxcc.nki"), std::string::npos);
      EXPECT_EQ(cur.system.find("nl.affine_range("), std::string::npos) << "0.6 guides use range()";
      EXPECT_EQ(cur.system.find("mask=("), std::string::npos) << "0.6 has no masks";
      EXPECT_NE(cur.system.find("min(128"), std::string::npos) << "the rank guide's ragged tail";
      EXPECT_NE(old.system.find("import neuronxcc.nki.language as nl"), std::string::npos);
      EXPECT_EQ(cur.task, old.task);  // the task message is dialect-neutral
      EXPECT_EQ(cur.no_code_followup, old.no_code_followup);
      EXPECT_EQ(cur.review_followup.find("masked"), std::string::npos);
      EXPECT_NE(old.review_followup.find("masked"), std::string::npos);
      EXPECT_EQ(cur.system.find("{{"), std::string::npos);
    }
  }
  EXPECT_EQ(ranks_seen, 3);  // the 2-D, 3-D and 4-D guides were all rendered
  agent::TaskInfo any = toolchain::task_info(load_task(all_task_dirs().front()));
  EXPECT_THROW(agent::build_episode_prompts(prompts, any, agent::Mode::Agent, 5, "0.5"), std::invalid_argument);
}

// verify_kernel compiles before it runs, so the tool modes' prompts tell the model to call it
// directly rather than compile first (issue 29: the compile-then-verify instruction cost a turn
// per kernel), in both dialects' episodes, and optimize mode says how an episode ends.
TEST(TaskPrompts, ToolModesSayVerifyMayBeCalledDirectly) {
  const std::string prompts = source_dir() + "/prompts";
  agent::TaskInfo info = toolchain::task_info(load_task(all_task_dirs().front()));
  info.start_kernel = "def kernel(x):\n    return x\n";
  for (const char* nki : {"2.24", "0.6"}) {
    for (agent::Mode mode : {agent::Mode::Agent, agent::Mode::Optimize}) {
      SCOPED_TRACE(std::string(nki) + " " + agent::mode_name(mode));
      agent::EpisodePrompts p = agent::build_episode_prompts(prompts, info, mode, 5, nki);
      EXPECT_NE(p.system.find("compiles the kernel first"), std::string::npos);
      EXPECT_NE(p.system.find("no need to call `compile_kernel` first"), std::string::npos);
      EXPECT_EQ(p.system.find("compile it, fix what"), std::string::npos);  // the old workflow
      if (mode == agent::Mode::Optimize) {
        EXPECT_NE(p.system.find("any reply without a tool call ends the episode"), std::string::npos);
      }
    }
  }
}

}  // namespace
}  // namespace nki
