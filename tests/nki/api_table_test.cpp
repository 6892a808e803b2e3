// The API tables (nki/api_table.h): row names are unique within a module (ModuleObj::set would
// let a second row silently replace the first), signatures are ones Args can bind, and a row's
// availability check runs before its arguments are bound.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "nki/nisa_apis.h"
#include "nki/nl_apis.h"
#include "nki/tracer.h"

using namespace nki;
using namespace nki::front;

namespace {

void expect_unique_and_bindable(const std::vector<const std::vector<ApiRow>*>& tables, const char* module) {
  std::set<std::string> seen;
  size_t rows = 0;
  for (const auto* table : tables) {
    for (const ApiRow& row : *table) {
      ++rows;
      EXPECT_TRUE(seen.insert(row.name).second) << module << "." << row.name << " is registered twice";
      EXPECT_LE(row.signature.max_positional, row.signature.params.size()) << module << "." << row.name;
      EXPECT_LE(row.signature.required, row.signature.params.size()) << module << "." << row.name;
      EXPECT_TRUE(row.run) << module << "." << row.name << " has no binder/emitter";
    }
  }
  EXPECT_GT(rows, 0u) << module;
}

}  // namespace

TEST(ApiTable, NisaRowsAreUniqueAndBindable) { expect_unique_and_bindable({&nisa::apis()}, "nisa"); }

TEST(ApiTable, NlRowsAreUniqueAndBindable) { expect_unique_and_bindable(nl::all_tables(), "nl"); }

TEST(ApiTable, AvailabilityIsCheckedBeforeTheArguments) {
  // Outside a kernel, with one positional argument too many: the call is reported as an API
  // outside a kernel, not as a binding error.
  const char* src =
      "import neuronxcc.nki as nki\n"
      "import neuronxcc.nki.language as nl\n"
      "ident = nl.shared_identity_matrix(128, nl.float32, 7)\n"
      "@nki.jit\n"
      "def k(a):\n"
      "    return a\n";
  TraceOptions opts;
  opts.args = {ArgSpec{{128, 128}, DType::Float32}};
  TraceResult r = trace_kernel(std::make_shared<SourceFile>("k.py", src), opts);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].code, "err_nki_api_outside_of_nki_kernel") << r.diagnostics[0].message;
}
