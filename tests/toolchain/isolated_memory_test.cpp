// An isolated child starts with fresh heap accounting (toolchain/isolated.cpp,
// base/memory_budget.h): whatever the forking thread of a long-running server had counted or
// had open must not leak into the kernel's compile-time memory budget.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/memory_budget.h"
#include "toolchain/isolated.h"

namespace nki::toolchain {
namespace {

sandbox::Limits small_limits() {
  sandbox::Limits l;
  l.wall_seconds = 60;
  l.memory_bytes = int64_t{1} << 30;
  return l;
}

// The child allocates 64 MiB; the forking thread has a 1 MiB budget open. Without the reset
// the child inherits that budget and every allocation past 1 MiB is refused.
TEST(IsolatedMemory, ChildDoesNotInheritTheForkingThreadsBudget) {
  MemoryBudget parent_budget(int64_t{1} << 20);
  auto work = []() -> std::string {
    std::vector<char> big(size_t{64} << 20, 'x');
    MemoryBudget child_budget(int64_t{256} << 20);
    std::vector<char> more(size_t{16} << 20, 'y');
    return std::to_string(big.size() + more.size()) + (child_budget.refused() ? " refused" : " ok");
  };
  sandbox::Result r = run_work_isolated(work, small_limits(), Isolation{});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.payload, std::to_string((size_t{64} << 20) + (size_t{16} << 20)) + " ok");
  EXPECT_FALSE(parent_budget.refused());
}

}  // namespace
}  // namespace nki::toolchain
