// Differential test: our parser vs CPython's `ast` (tools/pyast/dump.py) on
//   - every .py file of this repository (tests/lang/cases holds hand-written tricky cases),
//   - a few hundred generated modules (snippet_generator.h, fixed seeds),
//   - invalid snippets that both must reject (same line where CPython's line is meaningful).
// One python3 process per batch keeps the run short. Skipped when python3 is unavailable.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "lang/ast_dump.h"
#include "lang/parser.h"
#include "snippet_generator.h"

namespace fs = std::filesystem;

namespace nki::py {
namespace {

std::string source_dir() {
  const char* env = std::getenv("NKI_SOURCE_DIR");
  return env && *env ? env : NKI_SOURCE_DIR;
}

bool have_python() {
  static const bool ok = std::system("python3 -c 'import ast, sys; assert sys.version_info[:2] == (3, 11)' "
                                     ">/dev/null 2>&1") == 0;
  return ok;
}

fs::path temp_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("nki-lang-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Runs tools/pyast/dump.py --batch over `files`; returns path -> dump (or "ERROR ...").
std::map<std::string, std::string> cpython_dumps(const std::vector<std::string>& files, const fs::path& tmp) {
  fs::path list = tmp / "files.lst";
  {
    std::ofstream out(list);
    for (const auto& f : files) out << f << "\n";
  }
  std::string cmd = "python3 '" + source_dir() + "/tools/pyast/dump.py' --batch '" + list.string() + "'";
  FILE* p = popen(cmd.c_str(), "r");
  std::map<std::string, std::string> result;
  if (!p) return result;
  std::string all;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) all.append(buf, n);
  pclose(p);
  std::string cur;
  std::string body;
  bool have = false;
  std::istringstream in(all);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("=== ", 0) == 0) {
      if (have) result[cur] = body;
      cur = line.substr(4);
      body.clear();
      have = true;
    } else {
      body += line + "\n";
    }
  }
  if (have) result[cur] = body;
  return result;
}

std::string our_dump(const std::string& path) {
  try {
    return dump_ast(parse_module(load_source_file(path)));
  } catch (const DiagnosticError& e) {
    return "ERROR " + std::to_string(e.diagnostic().line) + " " + e.diagnostic().message + "\n";
  }
}

// Shows the first differing line with a little context.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  std::vector<std::string> ctx;
  int line = 0;
  while (true) {
    bool ga = static_cast<bool>(std::getline(sa, la)), gb = static_cast<bool>(std::getline(sb, lb));
    ++line;
    if (!ga && !gb) return "(identical)";
    if (!ga || !gb || la != lb) {
      std::string s = "at dump line " + std::to_string(line) + ":\n";
      for (const auto& c : ctx) s += "    " + c + "\n";
      s += "  cpython: " + (ga ? la : "<end>") + "\n  ours:    " + (gb ? lb : "<end>") + "\n";
      return s;
    }
    ctx.push_back(la);
    if (ctx.size() > 4) ctx.erase(ctx.begin());
  }
}

struct Outcome {
  int agree = 0, both_reject = 0;
  std::vector<std::string> failures;
};

Outcome compare(const std::vector<std::string>& files, const fs::path& tmp) {
  auto py = cpython_dumps(files, tmp);
  Outcome o;
  for (const auto& f : files) {
    auto it = py.find(f);
    std::string theirs = it == py.end() ? "MISSING\n" : it->second;
    std::string ours = our_dump(f);
    bool te = theirs.rfind("ERROR", 0) == 0, oe = ours.rfind("ERROR", 0) == 0;
    if (te && oe) {
      ++o.both_reject;
    } else if (theirs == ours) {
      ++o.agree;
    } else {
      o.failures.push_back(f + " " + first_difference(theirs, ours));
    }
  }
  return o;
}

std::vector<std::string> repo_python_files() {
  std::vector<std::string> files;
  fs::path root = source_dir();
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    std::string name = it->path().filename().string();
    if (it->is_directory() && (name.rfind("build", 0) == 0 || name[0] == '.' || name == "node_modules")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".py") files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Differential, RepositoryPythonFilesAgreeWithCPython) {
  if (!have_python()) GTEST_SKIP() << "python3 (3.11) not available";
  std::vector<std::string> files = repo_python_files();
  ASSERT_GT(files.size(), 5u);
  Outcome o = compare(files, temp_dir("repo"));
  for (const auto& f : o.failures) ADD_FAILURE() << f;
  std::printf("[differential] repository: %zu files, %d agree, %d rejected by both\n", files.size(),
              o.agree, o.both_reject);
}

TEST(Differential, HandWrittenCasesAllParseAndAgree) {
  if (!have_python()) GTEST_SKIP() << "python3 (3.11) not available";
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(fs::path(source_dir()) / "tests/lang/cases")) {
    if (e.path().extension() == ".py") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 10u);
  Outcome o = compare(files, temp_dir("cases"));
  for (const auto& f : o.failures) ADD_FAILURE() << f;
  EXPECT_EQ(o.both_reject, 0) << "hand-written cases must be valid Python";
  EXPECT_EQ(o.agree, static_cast<int>(files.size()));
}

TEST(Differential, GeneratedModulesAgreeWithCPython) {
  if (!have_python()) GTEST_SKIP() << "python3 (3.11) not available";
  fs::path tmp = temp_dir("gen");
  std::vector<std::string> files;
  // NKI_PYAST_GEN_FIRST / NKI_PYAST_GEN_COUNT override the seed range for local soak runs.
  const char* first_env = std::getenv("NKI_PYAST_GEN_FIRST");
  const char* count_env = std::getenv("NKI_PYAST_GEN_COUNT");
  uint32_t first = first_env ? static_cast<uint32_t>(std::atoi(first_env)) : 1;
  uint32_t count = count_env ? static_cast<uint32_t>(std::atoi(count_env)) : 400;
  for (uint32_t seed = first; seed < first + count; ++seed) {
    testing::SnippetGenerator gen(seed);
    fs::path p = tmp / ("gen_" + std::to_string(seed) + ".py");
    std::ofstream(p) << gen.module();
    files.push_back(p.string());
  }
  Outcome o = compare(files, tmp);
  for (const auto& f : o.failures) ADD_FAILURE() << f;
  // Rejected by both means the generator produced invalid Python: a generator bug.
  EXPECT_EQ(o.both_reject, 0);
  std::printf("[differential] generated: %zu modules, %d agree\n", files.size(), o.agree);
  if (!HasFailure()) fs::remove_all(tmp);
}

// Mutants of the hand-written cases (a character deleted, a token inserted, a span cut; fixed
// seed): we must accept exactly what CPython accepts, and when both reject, report the same
// line. The messages are CPython's in most cases (not required).
TEST(Differential, MutatedProgramsAreAcceptedAndRejectedLikeCPython) {
  if (!have_python()) GTEST_SKIP() << "python3 (3.11) not available";
  std::vector<std::string> chunks;
  for (const auto& e : fs::directory_iterator(fs::path(source_dir()) / "tests/lang/cases")) {
    if (e.path().extension() != ".py") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    for (size_t i = 0; i < lines.size(); i += 6) {  // small chunks keep errors local
      std::string c;
      for (size_t k = i; k < std::min(lines.size(), i + 6); ++k) c += lines[k] + "\n";
      chunks.push_back(c);
    }
  }
  std::sort(chunks.begin(), chunks.end());
  static const char* const kInsert[] = {"(", ")", "[", "]", "{", "}", ":", ",", "=", "*", "**",
                                        "if", "else", "for", "in", "lambda", "\"", "'", "f\"{",
                                        "\\", "\n", "    ", "\t", "as", ".", "not", ":=", "->",
                                        "@", "match", "case", "|", "yield", "#", "0x", "1e", "_"};
  std::mt19937 rng(12345);
  fs::path tmp = temp_dir("mut");
  std::vector<std::string> files;
  for (int n = 0; n < 600; ++n) {
    std::string c = chunks[rng() % chunks.size()];
    if (c.find_first_not_of(" \n") == std::string::npos) continue;
    size_t pos = rng() % c.size();
    int op = static_cast<int>(rng() % 10);
    if (op < 4) c.erase(pos, 1);
    else if (op < 8) c.insert(pos, kInsert[rng() % (sizeof kInsert / sizeof kInsert[0])]);
    else c.erase(pos, 1 + rng() % 7);
    fs::path p = tmp / ("m_" + std::to_string(n) + ".py");
    std::ofstream(p, std::ios::binary) << c;
    files.push_back(p.string());
  }
  auto py = cpython_dumps(files, tmp);
  int both_reject = 0, same_line = 0, same_message = 0;
  for (const auto& f : files) {
    std::string theirs = py[f], ours = our_dump(f);
    bool te = theirs.rfind("ERROR", 0) == 0, oe = ours.rfind("ERROR", 0) == 0;
    if (te != oe || (!te && theirs != ours)) {
      ADD_FAILURE() << f << " " << first_difference(theirs, ours);
      continue;
    }
    if (!te) continue;
    ++both_reject;
    if (std::atoi(theirs.c_str() + 6) == std::atoi(ours.c_str() + 6)) ++same_line;
    else ADD_FAILURE() << f << "\n  cpython: " << theirs << "  ours:    " << ours;
    if (theirs == ours) ++same_message;
  }
  std::printf("[differential] mutants: %zu, both reject %d, same line %d, same message %d\n",
              files.size(), both_reject, same_line, same_message);
  if (!HasFailure()) fs::remove_all(tmp);
}

// Invalid programs. `line` is the line both parsers must report (0: CPython's line is not
// comparable, e.g. it points past the end of the file; only rejection is checked).
struct Invalid {
  const char* src;
  int line;
};

const Invalid kInvalid[] = {
    {"x = = 1\n", 1},
    {"def f()\n    pass\n", 1},
    {"if x\n    pass\n", 1},
    {"x = 1\n  y = 2\n", 2},
    {"if x:\npass\n", 2},
    {"if x:\n", 1},
    {"if x:\n# comment\n", 2},
    {"if x:\n\n\n", 3},
    {"def f():\n    x = 1\n    if x:\n", 3},
    {"if x:\n    a\n  b\n", 3},
    {"if x:\n\ta\n        b\n", 3},
    {"foo(1,\n  2\nx = 3\n", 1},
    {"x = [1, 2\n", 1},
    {"x = (1]\n", 1},
    {"x = 1)\n", 1},
    {"x = 'abc\n", 1},
    {"x = '''abc\n\n", 1},
    {"x = 012\n", 1},
    {"x = 1__0\n", 1},
    {"x = 0b2\n", 1},
    {"x = 1.e\n", 1},
    {"x = 5abc\n", 1},
    {"x = 1 \\ 2\n", 1},
    {"x = $\n", 1},
    {"f(x) = 1\n", 1},
    {"1 = x\n", 1},
    {"None = 1\n", 1},
    {"(a, b) += 1\n", 1},
    {"del f()\n", 1},
    {"del *a\n", 1},
    {"for f() in x: pass\n", 1},
    {"[x for 1 in y]\n", 1},
    {"f(a=1, b)\n", 1},
    {"f(**a, *b)\n", 1},
    {"f(x for x in y, 1)\n", 1},
    {"def f(a=1, b): pass\n", 1},
    {"def f(*): pass\n", 1},
    {"def f(/, a): pass\n", 1},
    {"def f(**k, a): pass\n", 1},
    {"lambda x=1, y: 0\n", 1},
    {"class C(:\n    pass\n", 1},
    {"x: int, y: int = 1, 2\n", 1},
    {"a, b: int\n", 1},
    {"try:\n    pass\n", 0},
    {"try:\n    pass\nexcept* :\n    pass\n", 3},
    {"try:\n    pass\nexcept A:\n    pass\nexcept* B:\n    pass\n", 5},
    {"with a as f(): pass\n", 1},
    {"import a.b as\n", 1},
    {"from . import *, a\n", 1},
    {"from x import a,\n", 1},
    {"return return\n", 1},
    {"print(*a for a in b)\n", 1},
    {"[*a for a in b]\n", 1},
    {"x = f'{}'\n", 1},
    {"x = f'{a!x}'\n", 1},
    {"x = f'{a'\n", 1},
    {"x = f'}'\n", 1},
    {"x = f'{a b}'\n", 1},
    {"x = f'{a:{b:{c}}}'\n", 1},
    {"x = f'{\\'a\\'}'\n", 1},
    {"x = f'{a#}'\n", 1},
    {"x = 'a' b'b'\n", 1},
    {"x = b'\xc3\xa9'\n", 1},
    {"x = '\\x4'\n", 1},
    {"x = '\\U00110000'\n", 1},
    {"match x:\n    case 1+1: pass\n", 2},
    {"match x:\n    case a.b(c=1, 2): pass\n", 2},
    {"match x:\npass\n", 2},
    {"x = 1 if 2\n", 1},
    {"a := 1\n", 1},
    {"x = (a := 1 := 2)\n", 1},
    {"def f(a, a=, b): pass\n", 1},
    {"@\ndef f(): pass\n", 1},
    {"async x = 1\n", 1},
    {"else: pass\n", 1},
    {"x = 1\nelif y: pass\n", 2},
    {"global a.b\n", 1},
    {"nonlocal\n", 1},
    {"assert\n", 1},
    {"raise from x\n", 1},
    {"x = not\n", 1},
    {"x = a[1:2:3:4]\n", 1},
    {"x = {**a: 1}\n", 1},
    {"x = {a: 1, b}\n", 1},
    {"x = lambda: yield\n", 1},
    {"x = 1\x0c\nif x:\n    \x0cpass\n", 3},
    {"x = a.1\n", 1},
    {"x = a..b\n", 1},
    {"x = 1 +\n", 1},
    {"def f(): pass\n  x = 1\n", 2},
    {"pass pass\n", 1},
    {"x = [\n1,\n2\n", 1},
};

TEST(Differential, InvalidProgramsAreRejectedLikeCPython) {
  if (!have_python()) GTEST_SKIP() << "python3 (3.11) not available";
  fs::path tmp = temp_dir("invalid");
  std::vector<std::string> files;
  int i = 0;
  for (const Invalid& c : kInvalid) {
    fs::path p = tmp / ("bad_" + std::to_string(i++) + ".py");
    std::ofstream(p, std::ios::binary) << c.src;
    files.push_back(p.string());
  }
  auto py = cpython_dumps(files, tmp);
  const std::regex format(R"(^[^:]+\.py:\d+:\d+: error\[syntax\]: .+\n)");
  i = 0;
  for (const Invalid& c : kInvalid) {
    const std::string& f = files[i++];
    SCOPED_TRACE("snippet: " + std::string(c.src));
    ASSERT_EQ(py[f].rfind("ERROR ", 0), 0u) << "CPython accepted it; fix the test case";
    int py_line = std::atoi(py[f].c_str() + 6);
    try {
      parse_module(load_source_file(f));
      ADD_FAILURE() << "we accepted it; CPython says " << py[f];
    } catch (const DiagnosticError& e) {
      const Diagnostic& d = e.diagnostic();
      EXPECT_EQ(d.code, "syntax");
      EXPECT_TRUE(std::regex_search(render_text(d), format)) << render_text(d);
      if (c.line != 0) {
        EXPECT_EQ(py_line, c.line) << "CPython's line changed; fix the test case";
        EXPECT_EQ(d.line, c.line) << d.message;
      }
    }
  }
  if (!HasFailure()) fs::remove_all(tmp);
}

}  // namespace
}  // namespace nki::py
