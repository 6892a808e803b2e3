// The data-quality funnel of one export: how many records came in, how many each validator
// dropped (by reason code), how many were kept, and what truncation cut. Written next to the
// output as FUNNEL.md and FUNNEL.json.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace nki::train {

struct Funnel {
  std::string command;                    // the export that produced it
  long long input = 0;                    // records (or tasks, for generators) considered
  long long kept = 0;                     // records written
  std::map<std::string, long long> dropped;           // reason code -> count
  std::map<std::string, std::string> first_example;   // reason code -> "id: message"
  std::map<std::string, long long> kept_by_provenance;
  std::map<std::string, long long> kept_by_detail;    // e.g. "mutation=missing_store"
  std::map<std::string, long long> notes;             // generator counters (not drops)
  long long truncated_records = 0;
  long long cut_chars = 0;

  void drop(const std::string& reason, const std::string& id, const std::string& message);
  nlohmann::ordered_json to_json() const;
  std::string to_markdown() const;
};

// Writes <dir of out_path>/FUNNEL.md and FUNNEL.json; returns the Markdown path. Throws
// nki::IoError when they cannot be written.
std::string write_funnel(const Funnel& f, const std::string& out_path);

}  // namespace nki::train
