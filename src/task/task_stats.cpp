#include "task/task_stats.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace nki {

namespace {

std::string short_dtype(DType t) {
  switch (t) {
    case DType::Float32: return "fp32";
    case DType::BFloat16: return "bf16";
    case DType::Float16: return "fp16";
    default: return dtype_name(t);
  }
}

std::string percent(int part, int whole) {
  if (whole == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f %%", 100.0 * part / whole);
  return buf;
}

const std::vector<std::string> kDtypeColumns = {"fp32", "bf16", "fp16"};

}  // namespace

TaskProfile profile_task(const TaskSpec& task) {
  TaskProfile p;
  p.id = task.id;
  p.level = task.level;
  p.category = task.category;
  p.family = task.family;
  p.dtype = "int";
  auto first_float = [](const std::vector<TensorSpec>& specs) -> const TensorSpec* {
    for (const TensorSpec& s : specs)
      if (dtype_is_float(s.dtype)) return &s;
    return nullptr;
  };
  if (const TensorSpec* o = first_float(task.outputs)) p.dtype = short_dtype(o->dtype);
  else if (const TensorSpec* i = first_float(task.inputs)) p.dtype = short_dtype(i->dtype);
  for (const TensorSpec& in : task.inputs) {
    p.rank = std::max(p.rank, static_cast<int>(in.shape.size()));
    if (dtype_is_int(in.dtype)) p.int_input = true;
  }
  p.awkward = std::find(task.tags.begin(), task.tags.end(), "awkward") != task.tags.end();
  p.multi_output = task.outputs.size() > 1;
  return p;
}

std::string render_composition(const std::vector<TaskProfile>& tasks, const std::string& title,
                               bool cross) {
  std::ostringstream out;
  const int n = static_cast<int>(tasks.size());
  out << "## Composition: " << title << " (" << n << " tasks)\n\n";

  // Per level: dtype and rank columns plus the coverage counts.
  std::set<std::string> other_dtypes;
  for (const TaskProfile& t : tasks)
    if (std::find(kDtypeColumns.begin(), kDtypeColumns.end(), t.dtype) == kDtypeColumns.end())
      other_dtypes.insert(t.dtype);
  std::vector<std::string> dtypes = kDtypeColumns;
  dtypes.insert(dtypes.end(), other_dtypes.begin(), other_dtypes.end());
  // Rank columns 1-D .. 4-D always (so tables of different subsets line up), wider if needed.
  int min_rank = 1, max_rank = 4;
  for (const TaskProfile& t : tasks) {
    min_rank = std::min(min_rank, t.rank);
    max_rank = std::max(max_rank, t.rank);
  }

  out << "| level | tasks |";
  for (const std::string& d : dtypes) out << " " << d << " |";
  for (int r = min_rank; r <= max_rank; ++r) out << " " << r << "-D |";
  out << " awkward | multi-output | int input |\n|";
  const size_t columns = 2 + dtypes.size() + static_cast<size_t>(max_rank - min_rank + 1) + 3;
  for (size_t c = 0; c < columns; ++c) out << " --- |";
  out << "\n";

  struct Row {
    int tasks = 0, awkward = 0, multi = 0, int_input = 0;
    std::map<std::string, int> dtype;
    std::map<int, int> rank;
  };
  auto row_of = [&](int level) {
    Row r;
    for (const TaskProfile& t : tasks) {
      if (level != 0 && t.level != level) continue;
      ++r.tasks;
      ++r.dtype[t.dtype];
      ++r.rank[t.rank];
      r.awkward += t.awkward;
      r.multi += t.multi_output;
      r.int_input += t.int_input;
    }
    return r;
  };
  auto print_row = [&](const std::string& label, const Row& r, bool share) {
    auto cell = [&](int v) { return share ? percent(v, r.tasks) : std::to_string(v); };
    out << "| " << label << " | " << (share ? percent(r.tasks, n) : std::to_string(r.tasks)) << " |";
    for (const std::string& d : dtypes) out << " " << cell(r.dtype.count(d) ? r.dtype.at(d) : 0) << " |";
    for (int k = min_rank; k <= max_rank; ++k) out << " " << cell(r.rank.count(k) ? r.rank.at(k) : 0) << " |";
    out << " " << cell(r.awkward) << " | " << cell(r.multi) << " | " << cell(r.int_input) << " |\n";
  };
  std::set<int> levels;
  for (const TaskProfile& t : tasks) levels.insert(t.level);
  for (int level : levels) print_row("L" + std::to_string(level), row_of(level), false);
  Row all = row_of(0);
  print_row("all", all, false);
  print_row("share", all, true);

  // Category x level.
  std::map<std::string, std::map<int, int>> by_category;
  for (const TaskProfile& t : tasks) ++by_category[t.category][t.level];
  out << "\n| category |";
  for (int level : levels) out << " L" << level << " |";
  out << " all |\n| --- |";
  for (size_t i = 0; i <= levels.size(); ++i) out << " --- |";
  out << "\n";
  for (const auto& [category, counts] : by_category) {
    int total = 0;
    out << "| " << category << " |";
    for (int level : levels) {
      int c = counts.count(level) ? counts.at(level) : 0;
      total += c;
      out << " " << c << " |";
    }
    out << " " << total << " |\n";
  }

  if (cross) {
    std::map<std::tuple<int, std::string, std::string, int>, int> cells;
    for (const TaskProfile& t : tasks) ++cells[{t.level, t.category, t.dtype, t.rank}];
    out << "\n| level | category | dtype | rank | tasks |\n| --- | --- | --- | --- | --- |\n";
    for (const auto& [key, count] : cells)
      out << "| L" << std::get<0>(key) << " | " << std::get<1>(key) << " | " << std::get<2>(key)
          << " | " << std::get<3>(key) << "-D | " << count << " |\n";
  }
  return out.str();
}

}  // namespace nki
