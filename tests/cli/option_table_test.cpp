// The option parser on a small made-up table: spellings, validation messages, help text.
#include <gtest/gtest.h>


#include "cli/numbers.h"
#include "cli/option_table.h"

namespace nki::cli {
namespace {

CommandSpec demo_spec() {
  CommandSpec s;
  s.name = "demo";
  s.synopsis = "nkiagent demo FILE [options]";
  s.description = "A command for the tests.";
  OptionSpec input = text_option("input", "PATH", "an input");
  input.repeatable = true;
  OptionSpec timeout = real_option("timeout", "S", 0.001, 86400, "seconds", "300");
  s.options = {
      integer_option("trials", "N", 1, 1000, "trial count"),
      timeout,
      real_option("temperature", "T", 0, 2, "sampling temperature"),
      choice_option("target", "trn1|trn2", {"trn1", "trn2"}, "the chip", "trn1"),
      flag_option("json", "JSON output"),
      input,
      text_option("out", "DIR", "output directory"),
  };
  s.epilog = "exit status: 0 ok";
  return s;
}

// Parses {"demo", args...} against demo_spec().
struct Parse {
  CommandSpec spec = demo_spec();
  std::vector<std::string> store;
  std::vector<char*> argv;
  ParsedOptions operator()(std::vector<std::string> args) {
    store = std::move(args);
    store.insert(store.begin(), "demo");
    argv.clear();
    for (auto& s : store) argv.push_back(s.data());
    return parse_command_line(spec, static_cast<int>(argv.size()), argv.data());
  }
  std::string error(std::vector<std::string> args) {
    try {
      (*this)(std::move(args));
    } catch (const UsageError& e) {
      return e.what();
    }
    return "(accepted)";
  }
};

TEST(Numbers, IntegersAreWholeDecimalStringsOnly) {
  EXPECT_EQ(to_integer("12"), 12);
  EXPECT_EQ(to_integer("+3"), 3);
  EXPECT_EQ(to_integer("-5"), -5);
  for (const char* bad : {"", "abc", "3abc", " 3", "3 ", "1.5", "1e3", "0x10", "+-1", "++1", "-",
                          "99999999999999999999", "-99999999999999999999"})
    EXPECT_EQ(to_integer(bad), std::nullopt) << bad;
  EXPECT_EQ(to_integer("9223372036854775807"), INT64_MAX);
}

TEST(Numbers, RealsAreFiniteDecimals) {
  EXPECT_EQ(to_real("2.5"), 2.5);
  EXPECT_EQ(to_real("1e3"), 1000.0);
  EXPECT_EQ(to_real("+0.5"), 0.5);
  EXPECT_EQ(to_real("-0.1"), -0.1);
  for (const char* bad : {"", "abc", "2.5s", " 1", "inf", "-inf", "nan", "1e999", "0x1p3", "1,5", "."})
    EXPECT_EQ(to_real(bad), std::nullopt) << bad;
}

TEST(OptionTable, BothSpellingsRepeatsAndLastWins) {
  Parse parse;
  ParsedOptions o = parse({"f.py", "--trials", "3", "--timeout=2.5", "--input", "a", "--input=b", "--out", "x",
                           "--out", "y", "--json"});
  EXPECT_EQ(o.integer("trials"), 3);
  EXPECT_EQ(o.real("timeout"), 2.5);
  EXPECT_EQ(o.all("input"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(o.text("out"), "y");
  EXPECT_TRUE(o.flag("json"));
  EXPECT_EQ(o.positionals(), std::vector<std::string>{"f.py"});
}

TEST(OptionTable, DefaultsComeFromTheTableAndDoNotCountAsGiven) {
  Parse parse;
  ParsedOptions o = parse({});
  EXPECT_FALSE(o.has("timeout"));
  EXPECT_EQ(o.real("timeout"), 300.0);
  EXPECT_EQ(o.text("target"), "trn1");
  EXPECT_EQ(o.integer("trials"), std::nullopt);
  EXPECT_FALSE(o.flag("json"));
  EXPECT_TRUE(o.all("input").empty());
}

TEST(OptionTable, DoubleDashEndsOptions) {
  Parse parse;
  ParsedOptions o = parse({"--json", "--", "--trials", "-h"});
  EXPECT_TRUE(o.flag("json"));
  EXPECT_FALSE(o.help());
  EXPECT_EQ(o.positionals(), (std::vector<std::string>{"--trials", "-h"}));
}

TEST(OptionTable, HelpWinsOverEveryOtherProblem) {
  Parse parse;
  EXPECT_TRUE(parse({"--bogus", "--trials", "abc", "-h"}).help());
  EXPECT_TRUE(parse({"--help"}).help());
}

TEST(OptionTable, UnknownOptionIsReportedAsUnknownEvenWithoutAValue) {
  Parse parse;
  EXPECT_EQ(parse.error({"--bogus"}), "unknown option --bogus");
  EXPECT_EQ(parse.error({"--bogus=1"}), "unknown option --bogus");
  EXPECT_EQ(parse.error({"--trials"}), "--trials needs a value (N)");
  EXPECT_EQ(parse.error({"--json=yes"}), "--json takes no value");
}

TEST(OptionTable, NumericValuesAreCheckedAtParseTime) {
  Parse parse;
  EXPECT_EQ(parse.error({"--trials", "abc"}), "--trials expects an integer from 1 to 1000, got 'abc'");
  EXPECT_EQ(parse.error({"--trials", "99999999999"}), "--trials expects an integer from 1 to 1000, got '99999999999'");
  EXPECT_EQ(parse.error({"--trials", "-5"}), "--trials expects an integer from 1 to 1000, got '-5'");
  EXPECT_EQ(parse.error({"--trials", "0"}), "--trials expects an integer from 1 to 1000, got '0'");
  EXPECT_EQ(parse.error({"--trials", "3abc"}), "--trials expects an integer from 1 to 1000, got '3abc'");
  EXPECT_EQ(parse.error({"--trials="}), "--trials expects an integer from 1 to 1000, got ''");
  EXPECT_EQ(parse.error({"--trials", "1000"}), "(accepted)");
  EXPECT_EQ(parse.error({"--timeout", "abc"}), "--timeout expects a number from 0.001 to 86400, got 'abc'");
  EXPECT_EQ(parse.error({"--timeout", "0"}), "--timeout expects a number from 0.001 to 86400, got '0'");
  EXPECT_EQ(parse.error({"--timeout", "inf"}), "--timeout expects a number from 0.001 to 86400, got 'inf'");
  EXPECT_EQ(parse.error({"--timeout", "1e20"}), "--timeout expects a number from 0.001 to 86400, got '1e20'");
  EXPECT_EQ(parse.error({"--timeout", "0.001"}), "(accepted)");
  EXPECT_EQ(parse.error({"--temperature", "2.5"}), "--temperature expects a number from 0 to 2, got '2.5'");
  EXPECT_EQ(parse.error({"--temperature", "0"}), "(accepted)");
  EXPECT_EQ(parse.error({"--target", "trn3"}), "--target must be trn1|trn2, got 'trn3'");
}

TEST(OptionTable, UndeclaredOptionIsAProgrammingError) {
  Parse parse;
  ParsedOptions o = parse({});
  EXPECT_THROW(o.text("nope"), std::logic_error);
  EXPECT_THROW(o.integer("timeout"), std::logic_error);  // a Real option read as an integer
}

TEST(OptionTable, HelpListsEveryOptionWithRangeChoicesAndDefault) {
  std::string help = format_help(demo_spec());
  EXPECT_EQ(help.rfind("usage: nkiagent demo FILE [options]\n\nA command for the tests.\n\noptions:\n", 0), 0u) << help;
  EXPECT_NE(help.find("  --trials N          trial count (1 to 1000)\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  --timeout S         seconds (a number from 0.001 to 86400; default: 300)\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  --target trn1|trn2  the chip (default: trn1)\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  --input PATH        an input (repeatable)\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  -h, --help          show this help\n"), std::string::npos) << help;
  EXPECT_EQ(help.substr(help.size() - 19), "\nexit status: 0 ok\n");
}

}  // namespace
}  // namespace nki::cli
