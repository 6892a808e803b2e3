#include "base/diagnostic.h"

#include <gtest/gtest.h>

namespace nki {
namespace {

TEST(Diagnostic, TextHasClangStyleFirstLineCaretAndHint) {
  auto file = std::make_shared<SourceFile>("k.py", "x = 1\n  y = nl.exp(a)\n");
  Diagnostic d = make_diagnostic(Severity::Error, "err_unsupported_memory", "bad memory", file,
                                 SourceLoc{2, 7}, "load it first");
  std::string text = render_text(d);
  EXPECT_EQ(text,
            "k.py:2:7: error[err_unsupported_memory]: bad memory\n"
            "      y = nl.exp(a)\n"
            "          ^\n"
            "hint: load it first\n");
}

TEST(Diagnostic, JsonEscapesAndListsFields) {
  Diagnostic d;
  d.code = "syntax";
  d.message = "bad \"quote\"\n";
  d.file = "a.py";
  d.line = 3;
  d.col = 4;
  std::string json = render_json({d}, false);
  EXPECT_NE(json.find("\"ok\": false"), std::string::npos);
  EXPECT_NE(json.find("bad \\\"quote\\\"\\n"), std::string::npos);
  EXPECT_NE(json.find("\"line\": 3"), std::string::npos);
}

TEST(SourceFile, LineTextStripsNewlinesAndHandlesRange) {
  SourceFile f("a.py", "one\r\ntwo\nthree");
  EXPECT_EQ(f.line_text(1), "one");
  EXPECT_EQ(f.line_text(3), "three");
  EXPECT_EQ(f.line_text(4), "");
  EXPECT_EQ(f.line_count(), 3);
}

}  // namespace
}  // namespace nki
