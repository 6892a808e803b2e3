// Consistency of the task tree: every task has a reference solution in the expected shape, and
// every subset list names existing tasks exactly once.
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "task/balanced_subset.h"
#include "task/task_spec.h"
#include "task/task_stats.h"

namespace nki {
namespace {

namespace fs = std::filesystem;

const std::string kRoot = NKI_SOURCE_DIR;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::set<std::string> task_ids() {
  std::set<std::string> ids;
  for (const auto& e : fs::directory_iterator(kRoot + "/tasks")) {
    if (fs::exists(e.path() / "task.json")) ids.insert(e.path().filename().string());
  }
  return ids;
}

TEST(Repository, EveryTaskHasALegacySolution) {
  std::set<std::string> ids = task_ids();
  ASSERT_GE(ids.size(), 20u);
  const std::regex jit(R"(^@nki\.jit\b)", std::regex::multiline);
  for (const std::string& id : ids) {
    fs::path sol = fs::path(kRoot) / "solutions" / (id + ".py");
    ASSERT_TRUE(fs::exists(sol)) << sol;
    std::string text = read(sol);
    auto n = std::distance(std::sregex_iterator(text.begin(), text.end(), jit),
                           std::sregex_iterator());
    EXPECT_EQ(n, 1) << sol << ": exactly one @nki.jit kernel expected";
    EXPECT_NE(text.find("import neuronxcc.nki as nki"), std::string::npos) << sol;
    EXPECT_NE(text.find("import neuronxcc.nki.language as nl"), std::string::npos) << sol;
    EXPECT_NE(text.find("nl.shared_hbm"), std::string::npos) << sol << ": outputs live in shared_hbm";
  }
}

TEST(Repository, SubsetListsNameExistingTasksOnce) {
  std::set<std::string> ids = task_ids();
  int lists = 0;
  for (const auto& e : fs::directory_iterator(kRoot + "/tasks/subsets")) {
    if (e.path().extension() != ".txt") continue;
    ++lists;
    std::istringstream in(read(e.path()));
    std::set<std::string> seen;
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      EXPECT_TRUE(ids.count(line)) << e.path() << ": unknown task '" << line << "'";
      EXPECT_TRUE(seen.insert(line).second) << e.path() << ": '" << line << "' listed twice";
    }
  }
  EXPECT_GE(lists, 1);
}

// tasks/subsets/balanced150.txt is what `nkiagent tasks select-balanced` makes of tasks/ today:
// never stale, never edited by hand; and it must exist once every level has 50 tasks.
TEST(Repository, Balanced150IsTheRuleAppliedToEveryTask) {
  std::vector<TaskProfile> pool;
  std::map<int, int> per_level;
  for (const std::string& id : task_ids()) {
    pool.push_back(profile_task(load_task(kRoot + "/tasks/" + id)));
    ++per_level[pool.back().level];
  }
  bool enough = per_level.size() == 3;
  for (const auto& [level, n] : per_level) enough = enough && n >= 50;
  fs::path list = fs::path(kRoot) / "tasks" / "subsets" / "balanced150.txt";
  if (!fs::exists(list)) {
    EXPECT_FALSE(enough) << "every level has >= 50 tasks: generate the list with `nkiagent tasks "
                            "select-balanced --out tasks/subsets/balanced150.txt`";
    return;
  }
  ASSERT_TRUE(enough) << list << " exists but some level has fewer than 50 tasks";
  EXPECT_EQ(read(list), render_balanced_list(select_balanced(pool, 50), 50))
      << list << " is stale: regenerate it with `nkiagent tasks select-balanced --out " << list << "`";
}

}  // namespace
}  // namespace nki
