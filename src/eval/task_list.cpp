#include "eval/task_list.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace nki::eval {

namespace fs = std::filesystem;

namespace {

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

int read_level(const fs::path& task_json) {
  std::ifstream in(task_json);
  if (!in) throw std::runtime_error("cannot open " + task_json.string());
  try {
    auto j = nlohmann::json::parse(in);
    int level = j.at("level").get<int>();
    if (level < 1 || level > 3) throw std::runtime_error("level must be 1, 2 or 3");
    return level;
  } catch (const std::exception& e) {
    throw std::runtime_error(task_json.string() + ": " + e.what());
  }
}

std::vector<std::string> read_subset_ids(const fs::path& list) {
  std::ifstream in(list);
  if (!in) throw std::runtime_error("cannot open subset list " + list.string());
  std::vector<std::string> ids;
  std::string line;
  while (std::getline(in, line)) {
    auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    line = trim(line);
    if (line.empty()) continue;
    if (std::find(ids.begin(), ids.end(), line) != ids.end())
      throw std::runtime_error(list.string() + ": task '" + line + "' listed twice");
    ids.push_back(line);
  }
  return ids;
}

std::vector<std::string> all_task_ids(const fs::path& tasks_dir) {
  std::vector<std::string> ids;
  if (!fs::is_directory(tasks_dir)) throw std::runtime_error("no tasks directory " + tasks_dir.string());
  for (const auto& entry : fs::directory_iterator(tasks_dir))
    if (entry.is_directory() && fs::exists(entry.path() / "task.json"))
      ids.push_back(entry.path().filename().string());
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

std::vector<TaskRef> load_subset(const std::string& tasks_dir, const std::string& subset) {
  fs::path root(tasks_dir);
  if (subset == "all" && fs::exists(root / "subsets" / "all.txt"))
    throw std::runtime_error((root / "subsets" / "all.txt").string() +
                             ": 'all' is reserved for every task directory; remove or rename this list");
  std::vector<std::string> ids = subset == "all" ? all_task_ids(root)
                                                 : read_subset_ids(root / "subsets" / (subset + ".txt"));
  if (ids.empty()) throw std::runtime_error("subset '" + subset + "' has no tasks in " + tasks_dir);
  std::vector<TaskRef> tasks;
  tasks.reserve(ids.size());
  for (auto& id : ids) tasks.push_back({id, read_level(root / id / "task.json")});
  return tasks;
}

std::string fingerprint(const std::vector<TaskRef>& tasks) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a offset basis
  auto mix = [&](const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;  // separator so ("ab","c") != ("a","bc")
  };
  for (const auto& t : tasks) {
    mix(t.id);
    mix(std::to_string(t.level));
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::vector<WorkItem> expand_work(const std::vector<TaskRef>& tasks, int samples,
                                  const ShardSpec& shard) {
  std::vector<WorkItem> items;
  size_t j = 0;
  for (const auto& t : tasks)
    for (int s = 0; s < samples; ++s, ++j)
      if (static_cast<int>(j % static_cast<size_t>(shard.count)) == shard.index) items.push_back({t, s});
  return items;
}

}  // namespace nki::eval
