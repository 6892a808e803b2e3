// docs/reliability.md, section "CLI options", lists every numeric option of every command with
// the default, range and error message the option tables actually have.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli/command.h"

namespace nki::cli {
namespace {

std::vector<std::string> cli_options_section() {
  std::ifstream in(std::string(NKI_SOURCE_DIR) + "/docs/reliability.md");
  std::vector<std::string> lines;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) inside = line == "## CLI options";
    else if (inside) lines.push_back(line);
  }
  return lines;
}

TEST(ReliabilityDoc, ListsEveryNumericOptionWithItsDefaultRangeAndError) {
  std::vector<std::string> section = cli_options_section();
  ASSERT_FALSE(section.empty()) << "docs/reliability.md has no '## CLI options' section";
  for (const CommandEntry& entry : command_list()) {
    for (const OptionSpec& o : entry.make().spec.options) {
      if (o.type != ValueType::Integer && o.type != ValueType::Real) continue;
      std::string row_start = "| `" + std::string(entry.name) + "` | `--" + o.name + " " + o.hint + "` |";
      std::string dflt = !o.default_help.empty() ? o.default_help : !o.default_value.empty() ? o.default_value : "none";
      std::string error = "`" + validate_value(o, "abc") + "`";
      bool found = false;
      for (const std::string& line : section) {
        if (line.rfind(row_start, 0) != 0) continue;
        found = true;
        EXPECT_NE(line.find("| " + dflt + " |"), std::string::npos) << line << "\nexpected default: " << dflt;
        EXPECT_NE(line.find("| " + range_text(o) + " |"), std::string::npos) << line << "\nexpected range: " << range_text(o);
        EXPECT_NE(line.find(error), std::string::npos) << line << "\nexpected error: " << error;
      }
      EXPECT_TRUE(found) << "no row starting with: " << row_start;
    }
  }
}

}  // namespace
}  // namespace nki::cli
