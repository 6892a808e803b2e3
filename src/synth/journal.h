// The resume journal of a synth run (DIR/journal.jsonl): one JSON line per evaluated candidate,
// appended with a single write(2) as soon as the worker answers, so a run killed with -9 loses
// at most the candidates in flight. An entry is reused only while its content key (manifest +
// reference + worker protocol) is unchanged; a torn last line is ignored.
#pragma once

#include <map>
#include <mutex>
#include <string>

namespace nki::synth {

struct Verdict {
  std::string verdict;          // "ok" or a reason code
  std::string detail;
  double cpu_ms = 0.0;
  std::string tolerance_json = "null";
};

class Journal {
 public:
  explicit Journal(std::string path);
  ~Journal();
  // Entries read at open: id -> (content key, verdict).
  const std::map<std::string, std::pair<std::string, Verdict>>& entries() const { return entries_; }
  void append(const std::string& id, const std::string& key, const Verdict& v);

 private:
  std::string path_;
  int fd_ = -1;
  std::mutex mu_;
  std::map<std::string, std::pair<std::string, Verdict>> entries_;
};

}  // namespace nki::synth
