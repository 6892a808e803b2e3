// `tasks stats`: what a task counts as (dtype, rank, awkward, multi-output) and the tables.
#include "task/task_stats.h"

#include <gtest/gtest.h>

namespace nki {
namespace {

TensorSpec tensor(std::vector<int64_t> shape, DType t, const std::string& name = "x") {
  TensorSpec s;
  s.name = name;
  s.shape = std::move(shape);
  s.dtype = t;
  return s;
}

TEST(TaskStats, ProfileUsesFirstFloatOutputAndLargestInputRank) {
  TaskSpec t;
  t.id = "l1_gather";
  t.level = 1;
  t.category = "indexing";
  t.tags = {"gather", "awkward"};
  t.inputs = {tensor({1000, 256}, DType::BFloat16, "table"), tensor({3, 4, 5}, DType::Int32, "idx")};
  t.parameters = {tensor({2, 2, 2, 2, 2}, DType::Float32, "w")};  // parameters do not count
  t.outputs = {tensor({3, 4, 5, 256}, DType::Float16)};
  TaskProfile p = profile_task(t);
  EXPECT_EQ(p.dtype, "fp16");
  EXPECT_EQ(p.rank, 3);
  EXPECT_TRUE(p.awkward);
  EXPECT_TRUE(p.int_input);
  EXPECT_FALSE(p.multi_output);
  t.outputs = {tensor({4}, DType::Int32), tensor({4}, DType::Float32)};
  p = profile_task(t);
  EXPECT_EQ(p.dtype, "fp32");
  EXPECT_TRUE(p.multi_output);
  t.outputs = {tensor({4}, DType::Int32)};
  t.inputs = {tensor({4}, DType::Int32)};
  EXPECT_EQ(profile_task(t).dtype, "int");
}

TEST(TaskStats, TablesCountPerLevelAndCategory) {
  std::vector<TaskProfile> ts = {
      {"a", 1, "activation", "fp32", 2, true, false, false, "fa"},
      {"b", 1, "activation", "bf16", 4, false, true, false, "fb"},
      {"c", 2, "reduction", "fp32", 3, true, false, true, "fc"},
      {"d", 3, "matmul", "fp16", 2, false, false, false, "fd"},
  };
  std::string s = render_composition(ts, "subset demo", false);
  EXPECT_NE(s.find("## Composition: subset demo (4 tasks)"), std::string::npos) << s;
  EXPECT_NE(s.find("| level | tasks | fp32 | bf16 | fp16 | 1-D | 2-D | 3-D | 4-D | awkward | multi-output | int input |"),
            std::string::npos) << s;
  EXPECT_NE(s.find("| L1 | 2 | 1 | 1 | 0 | 0 | 1 | 0 | 1 | 1 | 1 | 0 |"), std::string::npos) << s;
  EXPECT_NE(s.find("| all | 4 | 2 | 1 | 1 | 0 | 2 | 1 | 1 | 2 | 1 | 1 |"), std::string::npos) << s;
  EXPECT_NE(s.find("| share | 100 % | 50 % | 25 % | 25 % | 0 % | 50 % | 25 % | 25 % | 50 % | 25 % | 25 % |"),
            std::string::npos) << s;
  EXPECT_NE(s.find("| activation | 2 | 0 | 0 | 2 |"), std::string::npos) << s;
  EXPECT_NE(s.find("| matmul | 0 | 0 | 1 | 1 |"), std::string::npos) << s;
  EXPECT_EQ(s.find("| level | category | dtype | rank |"), std::string::npos);
  std::string c = render_composition(ts, "subset demo", true);
  EXPECT_NE(c.find("| L1 | activation | bf16 | 4-D | 1 |"), std::string::npos) << c;
}

}  // namespace
}  // namespace nki
