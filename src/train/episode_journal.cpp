#include "train/episode_journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <fstream>

#include "base/diagnostic.h"

namespace nki::train {

namespace {

template <class M>
void add_counts(M& to, const M& from) {
  for (const auto& [k, n] : from) to[k] += n;
}

template <class M>
M map_of(const nlohmann::json& j, const char* key) {
  M m;
  if (j.contains(key))
    for (auto it = j[key].begin(); it != j[key].end(); ++it) m[it.key()] = it.value().get<typename M::mapped_type>();
  return m;
}

nlohmann::json outcome_json(const TaskOutcome& o) {
  return {{"lines", o.lines}, {"funnel", nlohmann::json::parse(o.funnel.to_json().dump())}};
}

}  // namespace

void merge_funnel(Funnel& total, const Funnel& part) {
  total.input += part.input;
  total.kept += part.kept;
  add_counts(total.dropped, part.dropped);
  for (const auto& [k, v] : part.first_example) total.first_example.emplace(k, v);
  add_counts(total.kept_by_provenance, part.kept_by_provenance);
  add_counts(total.kept_by_detail, part.kept_by_detail);
  add_counts(total.notes, part.notes);
  total.truncated_records += part.truncated_records;
  total.cut_chars += part.cut_chars;
}

Funnel funnel_from_json(const nlohmann::json& j) {
  Funnel f;
  f.command = j.value("command", "");
  f.input = j.value("input", 0LL);
  f.kept = j.value("kept", 0LL);
  f.dropped = map_of<std::map<std::string, long long>>(j, "dropped");
  f.first_example = map_of<std::map<std::string, std::string>>(j, "first_example");
  f.kept_by_provenance = map_of<std::map<std::string, long long>>(j, "kept_by_provenance");
  f.kept_by_detail = map_of<std::map<std::string, long long>>(j, "kept_by_detail");
  f.notes = map_of<std::map<std::string, long long>>(j, "notes");
  f.truncated_records = j.value("truncated_records", 0LL);
  f.cut_chars = j.value("cut_chars", 0LL);
  return f;
}

EpisodeJournal::EpisodeJournal(std::string path) : path_(std::move(path)) {
  std::ifstream in(path_);
  for (std::string line; std::getline(in, line);) {
    try {
      nlohmann::json j = nlohmann::json::parse(line);
      entries_[j.at("id").get<std::string>()] = {j.at("key").get<std::string>(), j.at("outcome")};
    } catch (const std::exception&) {
      // a line torn by a kill: that task is simply generated again
    }
  }
  fd_ = open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw IoError("cannot open the journal " + path_);
  std::ifstream tail(path_, std::ios::binary | std::ios::ate);
  if (tail.tellg() > 0) {
    tail.seekg(-1, std::ios::end);
    if (tail.get() != '\n' && write(fd_, "\n", 1) != 1) throw IoError("cannot write the journal " + path_);
  }
}

EpisodeJournal::~EpisodeJournal() {
  if (fd_ >= 0) close(fd_);
}

std::optional<TaskOutcome> EpisodeJournal::find(const std::string& id, const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end() || it->second.first != key) return std::nullopt;
  TaskOutcome o;
  try {
    o.lines = it->second.second.at("lines").get<std::vector<std::string>>();
    o.funnel = funnel_from_json(it->second.second.at("funnel"));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return o;
}

void EpisodeJournal::append(const std::string& id, const std::string& key, const TaskOutcome& o) {
  nlohmann::json j = {{"id", id}, {"key", key}, {"outcome", outcome_json(o)}};
  std::string line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  if (write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size())) throw IoError("cannot write the journal " + path_);
  entries_[id] = {key, j["outcome"]};
}

}  // namespace nki::train
