#include "synth/journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "base/diagnostic.h"

namespace nki::synth {

Journal::Journal(std::string path) : path_(std::move(path)) {
  std::ifstream in(path_);
  for (std::string line; std::getline(in, line);) {
    try {
      nlohmann::json j = nlohmann::json::parse(line);
      Verdict v{j.at("verdict").get<std::string>(), j.value("detail", ""), j.value("cpu_ms", 0.0),
                j.contains("tolerance") ? j["tolerance"].dump() : "null"};
      entries_[j.at("id").get<std::string>()] = {j.at("key").get<std::string>(), v};
    } catch (const std::exception&) {
      // a line torn by a kill: that candidate is simply evaluated again
    }
  }
  fd_ = open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw IoError("cannot open the journal " + path_);
  // A torn line without its newline would glue onto the next entry; start on a fresh line.
  std::ifstream tail(path_, std::ios::binary | std::ios::ate);
  if (tail.tellg() > 0) {
    tail.seekg(-1, std::ios::end);
    if (tail.get() != '\n' && write(fd_, "\n", 1) != 1) throw IoError("cannot write the journal " + path_);
  }
}

Journal::~Journal() {
  if (fd_ >= 0) close(fd_);
}

void Journal::append(const std::string& id, const std::string& key, const Verdict& v) {
  nlohmann::json j = {{"id", id}, {"key", key}, {"verdict", v.verdict}, {"detail", v.detail}, {"cpu_ms", v.cpu_ms},
                      {"tolerance", nlohmann::json::parse(v.tolerance_json)}};
  std::string line = j.dump() + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  if (write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size())) throw IoError("cannot write the journal " + path_);
  entries_[id] = {key, v};
}

}  // namespace nki::synth
