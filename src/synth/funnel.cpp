#include "synth/funnel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "synth/candidate.h"

namespace nki::synth {

using ojson = nlohmann::ordered_json;

namespace {

// The reason codes in pipeline order (docs/synthesis.md): static filters, then the worker.
const std::vector<std::string>& reason_order() {
  static const std::vector<std::string> r = {
      "budget_elements", "budget_macs", "duplicate", "contaminated_family_shape", "contaminated_ngram",
      "reference_error", "manifest_mismatch", "output_mismatch", "non_finite", "budget_time", "nondeterministic",
      "constant_output", "mostly_zeros", "zeros_pass", "ill_conditioned", "unused_argument", "trivial_constant",
      "trivial_copy", "worker_crash", "worker_timeout"};
  return r;
}

bool is_static(const std::string& reason) {
  return reason == "budget_elements" || reason == "budget_macs" || reason == "duplicate" ||
         reason == "contaminated_family_shape" || reason == "contaminated_ngram";
}

}  // namespace

ojson funnel_json(const FunnelInput& in) {
  ojson f;
  f["seed"] = in.options_seed;
  f["target"] = in.target;
  f["benchmark_tasks_held_out"] = in.benchmark_tasks;
  ojson seeds;
  seeds["total"] = in.set->seeds.size();
  std::map<std::string, int64_t> per_file, per_level;
  for (const Seed& s : in.set->seeds) {
    ++per_file[s.file];
    ++per_level["L" + std::to_string(s.level)];
  }
  seeds["by_file"] = per_file;
  seeds["by_level"] = per_level;
  f["seeds"] = seeds;
  f["patterns"] = in.set->patterns.size();
  f["expansion"] = {{"level1_space", in.expand->l1_space},
                    {"level_rule_redraws", in.expand->rule_rejections},
                    {"render_failures", in.expand->render_failures}};

  int64_t drawn = 0, passed_static = 0, evaluated = 0, accepted = 0, selected = 0, tightened = 0;
  int64_t drawn_awkward = 0, selected_awkward = 0;
  std::map<std::string, int64_t> reasons;
  for (const std::string& r : reason_order()) reasons[r] = 0;
  std::map<std::string, std::map<std::string, int64_t>> by_level, by_category, by_dtype;
  std::map<std::string, std::map<std::string, std::map<std::string, int64_t>>> cross;  // selected: category, level, dtype
  std::vector<int64_t> hist(10, 0);
  std::vector<std::string> over_time;  // budget_time: the one verdict that depends on the machine
  double max_j = 0.0;
  auto bump = [](std::map<std::string, int64_t>& m, const char* key) { ++m[key]; };
  for (const FunnelRow& r : in.rows) {
    ++drawn;
    const bool awkward = std::find(r.c->tags.begin(), r.c->tags.end(), "awkward") != r.c->tags.end();
    drawn_awkward += awkward;
    std::string lv = "L" + std::to_string(r.c->level);
    bump(by_level[lv], "drawn");
    bump(by_category[r.c->category], "drawn");
    bump(by_dtype[r.c->dtype], "drawn");
    if (r.evaluated || !is_static(r.verdict)) ++passed_static;
    if (r.evaluated) ++evaluated;
    if (r.verdict != "ok") {
      ++reasons[r.verdict];
      if (r.verdict == "budget_time") over_time.push_back(r.c->id);
      continue;
    }
    ++accepted;
    bump(by_level[lv], "accepted");
    bump(by_category[r.c->category], "accepted");
    bump(by_dtype[r.c->dtype], "accepted");
    if (!r.selected) continue;
    ++selected;
    selected_awkward += awkward;
    bump(by_level[lv], "selected");
    bump(by_category[r.c->category], "selected");
    bump(by_dtype[r.c->dtype], "selected");
    ++cross[r.c->category][lv][r.c->dtype];
    if (r.tolerance_tightened) ++tightened;
    hist[std::min<size_t>(9, static_cast<size_t>(r.max_jaccard * 10.0))]++;
    max_j = std::max(max_j, r.max_jaccard);
  }
  f["stages"] = ojson::array({{{"stage", "drawn candidates"}, {"count", drawn}},
                              {{"stage", "passed static filters (budgets, dedupe, decontamination)"}, {"count", passed_static}},
                              {{"stage", "evaluated by the torch worker"}, {"count", evaluated}},
                              {{"stage", "accepted (every filter passed)"}, {"count", accepted}},
                              {{"stage", "selected (balanced)"}, {"count", selected}}});
  f["balance_surplus"] = accepted - selected;
  f["shortfall"] = std::max<int64_t>(0, in.target - selected);
  f["reasons"] = reasons;
  f["contamination_tests"] = {{"family_shape", in.flags.count("contaminated_family_shape") ? in.flags.at("contaminated_family_shape") : 0},
                              {"ngram_jaccard_ge_0.6", in.flags.count("contaminated_ngram") ? in.flags.at("contaminated_ngram") : 0}};
  ojson hj;
  for (size_t i = 0; i < hist.size(); ++i) {
    char key[16];
    std::snprintf(key, sizeof key, "%.1f-%.1f", i / 10.0, (i + 1) / 10.0);
    hj[key] = hist[i];
  }
  f["selected_max_jaccard"] = {{"max", std::round(max_j * 1000.0) / 1000.0}, {"histogram", hj}};
  f["selected_tolerance_tightened"] = tightened;
  // Every other verdict is a function of the candidate's bytes; these depend on the CPU speed
  // (the journal keeps them, so a resumed run agrees; another machine may not).
  f["machine_dependent"] = {{"filter", "budget_time"}, {"rejected", over_time}};
  auto table = [](const std::map<std::string, std::map<std::string, int64_t>>& m) {
    ojson t;
    for (const auto& [k, v] : m) {
      auto get = [&](const char* key) { auto it = v.find(key); return it == v.end() ? int64_t{0} : it->second; };
      t[k] = {{"drawn", get("drawn")}, {"accepted", get("accepted")}, {"selected", get("selected")}};
    }
    return t;
  };
  f["by_level"] = table(by_level);
  f["by_category"] = table(by_category);
  f["by_dtype"] = table(by_dtype);
  f["selected_by_category_level_dtype"] = cross;
  auto percent = [](int64_t a, int64_t b) { return b ? std::round(1000.0 * a / b) / 10.0 : 0.0; };
  f["awkward_percent"] = {{"benchmark", in.benchmark_awkward_share < 0 ? 0.0 : std::round(1000.0 * in.benchmark_awkward_share) / 10.0},
                          {"drawn", percent(drawn_awkward, drawn)},
                          {"selected", percent(selected_awkward, selected)}};
  return f;
}

std::string funnel_markdown(const ojson& f) {
  std::string s = "# Synthesis funnel\n\n";
  s += "Seed " + f["seed"].dump() + ", target " + f["target"].dump() + "; " + f["seeds"]["total"].dump() + " seeds, " +
       f["patterns"].dump() + " fusion patterns; " + f["benchmark_tasks_held_out"].dump() +
       " benchmark tasks held out. Reason codes: docs/synthesis.md.\n\n";
  s += "| stage | count |\n| --- | --- |\n";
  for (const auto& st : f["stages"]) s += "| " + st["stage"].get<std::string>() + " | " + st["count"].dump() + " |\n";
  s += "| balance surplus (accepted, not selected) | " + f["balance_surplus"].dump() + " |\n";
  s += "| shortfall (target - selected) | " + f["shortfall"].dump() + " |\n\n";
  s += "| reason | rejected |\n| --- | --- |\n";
  for (const auto& [k, v] : f["reasons"].items()) s += "| " + k + " | " + v.dump() + " |\n";
  s += "\nContamination tests over every drawn candidate (a candidate can fail both; the first one "
       "is its reason above): same family and shapes " + f["contamination_tests"]["family_shape"].dump() +
       ", token 5-gram Jaccard >= 0.6 " + f["contamination_tests"]["ngram_jaccard_ge_0.6"].dump() + ".\n";
  s += "Selected tasks: largest 5-gram Jaccard against any benchmark reference " + f["selected_max_jaccard"]["max"].dump() +
       "; tolerance tightened (atol = rtol/10, tiny outputs) on " + f["selected_tolerance_tightened"].dump() + ".\n\n";
  s += "Machine-dependent verdicts (the 100 ms CPU-time budget, docs/synthesis.md): " +
       std::to_string(f["machine_dependent"]["rejected"].size()) + " rejected";
  for (const auto& id : f["machine_dependent"]["rejected"]) s += " `" + id.get<std::string>() + "`";
  s += ".\n\n";
  s += "| max Jaccard | selected |\n| --- | --- |\n";
  for (const auto& [k, v] : f["selected_max_jaccard"]["histogram"].items()) s += "| " + k + " | " + v.dump() + " |\n";
  for (const char* group : {"by_level", "by_dtype", "by_category"}) {
    s += std::string("\n| ") + (group + 3) + " | drawn | accepted | selected |\n| --- | --- | --- | --- |\n";
    for (const auto& [k, v] : f[group].items())
      s += "| " + k + " | " + v["drawn"].dump() + " | " + v["accepted"].dump() + " | " + v["selected"].dump() + " |\n";
  }
  s += "\nAwkward extents (tag `awkward`): " + f["awkward_percent"]["drawn"].dump() + " % of the drawn candidates, " +
       f["awkward_percent"]["selected"].dump() + " % of the selected tasks (the balance follows the benchmark's " +
       f["awkward_percent"]["benchmark"].dump() + " %).\n";
  // The balance as one table: selected tasks per category and (level, dtype).
  const std::vector<std::string> levels = {"L1", "L2", "L3"}, dtypes = {"float32", "bfloat16", "float16"};
  s += "\nSelected per category, level and dtype:\n\n| category |";
  for (const std::string& l : levels)
    for (const std::string& d : dtypes) s += " " + l + " " + dtype_short(d) + " |";
  s += " total |\n| --- |";
  for (size_t i = 0; i <= levels.size() * dtypes.size(); ++i) s += " --- |";
  s += "\n";
  std::map<std::string, int64_t> column;
  int64_t all = 0;
  for (const auto& [category, per_level] : f["selected_by_category_level_dtype"].items()) {
    s += "| " + category + " |";
    int64_t row = 0;
    for (const std::string& l : levels)
      for (const std::string& d : dtypes) {
        int64_t n = per_level.contains(l) && per_level[l].contains(d) ? per_level[l][d].get<int64_t>() : 0;
        s += " " + std::to_string(n) + " |";
        row += n;
        column[l + d] += n;
      }
    s += " " + std::to_string(row) + " |\n";
    all += row;
  }
  s += "| total |";
  for (const std::string& l : levels)
    for (const std::string& d : dtypes) s += " " + std::to_string(column[l + d]) + " |";
  s += " " + std::to_string(all) + " |\n";
  s += "\nExpansion: " + f["expansion"]["level1_space"].dump() + " level-1 combinations (seed x variant x dtype), " +
       f["expansion"]["level_rule_redraws"].dump() + " draws redrawn for a level rule, " +
       f["expansion"]["render_failures"].dump() + " variants whose shapes could not be rendered.\n";
  return s;
}

}  // namespace nki::synth
