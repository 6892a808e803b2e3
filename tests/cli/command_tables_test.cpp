// Properties every nkiagent command table must have, checked over the real command list.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <set>

#include "cli/command.h"
#include "cli/run_cli.h"

namespace nki::cli {
namespace {

TEST(CommandTables, NamesAreUniqueAndEveryValuedOptionHasAHint) {
  std::set<std::string> commands;
  for (const CommandEntry& e : command_list()) {
    Command c = e.make();
    EXPECT_EQ(c.spec.name, e.name);
    EXPECT_TRUE(commands.insert(e.name).second) << e.name;
    EXPECT_TRUE(c.run) << e.name;
    std::set<std::string> names;
    for (const OptionSpec& o : c.spec.options) {
      EXPECT_TRUE(names.insert(o.name).second) << e.name << " --" << o.name << " declared twice";
      EXPECT_NE(o.name, "help") << "help is built in";
      EXPECT_EQ(o.hint.empty(), o.type == ValueType::Flag) << e.name << " --" << o.name;
      EXPECT_FALSE(o.help.empty()) << e.name << " --" << o.name;
    }
  }
}

TEST(CommandTables, DefaultsPassTheirOwnValidation) {
  for (const CommandEntry& e : command_list()) {
    for (const OptionSpec& o : e.make().spec.options) {
      if (o.default_value.empty()) continue;
      EXPECT_EQ(validate_value(o, o.default_value), "") << e.name << " --" << o.name;
    }
  }
}

// Commands store integer options in `int` and pass numbers on to fields such as curl's
// millisecond timeout: every range must be finite and fit.
TEST(CommandTables, NumericRangesAreFiniteAndIntegersFitAnInt) {
  for (const CommandEntry& e : command_list()) {
    for (const OptionSpec& o : e.make().spec.options) {
      if (o.type != ValueType::Integer && o.type != ValueType::Real) continue;
      EXPECT_TRUE(std::isfinite(o.min) && std::isfinite(o.max) && o.min <= o.max) << e.name << " --" << o.name;
      if (o.type != ValueType::Integer) continue;
      EXPECT_LE(o.max, static_cast<double>(INT_MAX)) << e.name << " --" << o.name;
      EXPECT_GE(o.min, static_cast<double>(INT_MIN)) << e.name << " --" << o.name;
    }
  }
}

TEST(CommandTables, HelpExplainsEveryOption) {
  for (const CommandEntry& e : command_list()) {
    Command c = e.make();
    std::string help = format_help(c.spec);
    EXPECT_EQ(help.rfind("usage: " + c.spec.synopsis + "\n", 0), 0u) << e.name;
    for (const OptionSpec& o : c.spec.options) {
      std::string head = "  --" + o.name + (o.hint.empty() ? "" : " " + o.hint);
      EXPECT_NE(help.find(head), std::string::npos) << e.name << ": " << head;
      std::string first_help_line = o.help.substr(0, o.help.find('\n'));
      EXPECT_NE(help.find(first_help_line), std::string::npos) << e.name << " --" << o.name;
      if (!range_text(o).empty()) {
        EXPECT_NE(help.find(range_text(o)), std::string::npos) << e.name << " --" << o.name;
      }
    }
    EXPECT_NE(help.find("exit status"), std::string::npos) << e.name << " documents its exit codes";
  }
}

TEST(CommandTables, OverviewListsEveryCommand) {
  std::vector<std::string> store = {"nkiagent", "--help"};
  std::vector<char*> argv = {store[0].data(), store[1].data()};
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(run_cli(2, argv.data()), 0);
  std::string out = ::testing::internal::GetCapturedStdout();
  for (const CommandEntry& e : command_list())
    EXPECT_NE(out.find("  " + std::string(e.name) + " "), std::string::npos) << e.name;
}

}  // namespace
}  // namespace nki::cli
