#include "train/funnel.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/diagnostic.h"
#include "train/record.h"

namespace nki::train {

void Funnel::drop(const std::string& reason, const std::string& id, const std::string& message) {
  ++dropped[reason];
  if (!first_example.count(reason)) first_example[reason] = id + ": " + message;
}

nlohmann::ordered_json Funnel::to_json() const {
  nlohmann::ordered_json j;
  j["command"] = command;
  j["input"] = input;
  j["kept"] = kept;
  j["dropped"] = dropped;
  j["first_example"] = first_example;
  j["kept_by_provenance"] = kept_by_provenance;
  j["kept_by_detail"] = kept_by_detail;
  j["notes"] = notes;
  j["truncated_records"] = truncated_records;
  j["cut_chars"] = cut_chars;
  j["cut_tokens_estimate"] = estimate_tokens(cut_chars);
  return j;
}

std::string Funnel::to_markdown() const {
  std::ostringstream s;
  s << "# Export funnel\n\n`" << command << "`\n\n";
  s << "| stage | count |\n|---|---:|\n| input | " << input << " |\n";
  for (const auto& [reason, n] : dropped) s << "| dropped: `" << reason << "` | " << n << " |\n";
  s << "| **kept** | **" << kept << "** |\n\n";
  s << "Truncation: " << truncated_records << " kept record(s) had tool results shortened, " << cut_chars
    << " characters cut (about " << estimate_tokens(cut_chars) << " tokens).\n\n";
  if (!kept_by_provenance.empty()) {
    s << "| provenance | kept |\n|---|---:|\n";
    for (const auto& [p, n] : kept_by_provenance) s << "| " << p << " | " << n << " |\n";
    s << "\n";
  }
  if (!kept_by_detail.empty()) {
    s << "| detail | kept |\n|---|---:|\n";
    for (const auto& [p, n] : kept_by_detail) s << "| " << p << " | " << n << " |\n";
    s << "\n";
  }
  if (!notes.empty()) {
    s << "| generator note | count |\n|---|---:|\n";
    for (const auto& [p, n] : notes) s << "| " << p << " | " << n << " |\n";
    s << "\n";
  }
  if (!first_example.empty()) {
    s << "First record dropped for each reason:\n\n";
    for (const auto& [reason, ex] : first_example) {
      std::string one = ex.substr(0, 300);
      for (char& c : one)
        if (c == '\n' || c == '|') c = ' ';
      s << "- `" << reason << "`: " << one << "\n";
    }
  }
  return s.str();
}

std::string write_funnel(const Funnel& f, const std::string& out_path) {
  std::filesystem::path dir = std::filesystem::path(out_path).parent_path();
  if (dir.empty()) dir = ".";
  std::string md = (dir / "FUNNEL.md").string(), js = (dir / "FUNNEL.json").string();
  std::ofstream m(md), j(js);
  if (!m || !j) throw IoError("cannot write the funnel report next to '" + out_path + "'");
  m << f.to_markdown();
  j << f.to_json().dump(2) << "\n";
  return md;
}

}  // namespace nki::train
