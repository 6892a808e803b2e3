// Cross-checks fp16 and bf16 rounding against NumPy on a few thousand values: fp16 through
// numpy's own astype(float16); bf16 by picking the nearer of the two neighbouring bf16 values
// in float64 arithmetic (ties to the even pattern), an independent method.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <random>
#include <vector>

#include "base/dtype_convert.h"
#include "python_numpy.h"

namespace nki {
namespace {

using testing::TempDir;

template <typename T>
void write_raw(const std::string& path, const std::vector<T>& v) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
}

template <typename T>
std::vector<T> read_raw(const std::string& path, size_t n) {
  std::vector<T> v(n);
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(n * sizeof(T)));
  EXPECT_EQ(static_cast<size_t>(in.gcount()), n * sizeof(T)) << path;
  return v;
}

std::vector<float> sample_values() {
  std::mt19937 rng(2024);
  std::vector<float> v;
  // Random bit patterns (all exponents, NaN, inf, subnormals)...
  for (int i = 0; i < 2000; ++i) v.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
  // ...values in and around the fp16 range, including its subnormals...
  std::uniform_real_distribution<float> expo(-27.0f, 17.0f);
  for (int i = 0; i < 3000; ++i) {
    float m = std::exp2(expo(rng));
    v.push_back((rng() & 1) ? -m : m);
  }
  // ...and exact bf16/fp16 midpoints, where ties decide.
  for (int i = 0; i < 1000; ++i) {
    uint32_t b = static_cast<uint32_t>(rng()) & 0x7f7fffffu;
    v.push_back(std::bit_cast<float>((b & 0xffff0000u) | 0x8000u));
    uint32_t h = static_cast<uint32_t>(rng()) & 0x7bffu;
    v.push_back(fp16_bits_to_f32(static_cast<uint16_t>(h)) / 2 +
                fp16_bits_to_f32(static_cast<uint16_t>(h + 1)) / 2);
  }
  return v;
}

constexpr const char* kScript = R"PY(
import sys, numpy as np
d = sys.argv[1]
x = np.fromfile(d + "/in.bin", dtype="<f4")
with np.errstate(all="ignore"):
    x.astype(np.float16).view("<u2").tofile(d + "/fp16.bin")
    u = x.view("<u4")
    lo = u & np.uint32(0xFFFF0000)
    hi = lo + np.uint32(0x10000)
    ex = (lo >> np.uint32(23)) & np.uint32(0xFF)
    ulp = np.ldexp(1.0, np.maximum(ex.astype(np.int64), 1) - 127 - 7)
    x64 = x.astype(np.float64)
    lo64 = lo.view("<f4").astype(np.float64)
    hi64 = lo64 + np.copysign(ulp, x64)
    dlo = np.abs(x64 - lo64)
    dhi = np.abs(hi64 - x64)
    even_lo = ((lo >> np.uint32(16)) & np.uint32(1)) == 0
    pick_hi = (dhi < dlo) | ((dhi == dlo) & ~even_lo)
    out = np.where(pick_hi, hi, lo) >> np.uint32(16)
    out = np.where(np.isnan(x), np.uint32(0x7FC0), out)
out.astype("<u2").tofile(d + "/bf16.bin")
)PY";

TEST(NumpyCrossCheck, Fp16AndBf16RoundingMatch) {
  if (!testing::python_numpy_available()) GTEST_SKIP() << "/usr/bin/python3 with numpy not found";
  TempDir dir;
  auto values = sample_values();
  write_raw(dir.file("in.bin"), values);
  ASSERT_EQ(testing::run_python(dir, kScript), 0);
  auto fp16 = read_raw<uint16_t>(dir.file("fp16.bin"), values.size());
  auto bf16 = read_raw<uint16_t>(dir.file("bf16.bin"), values.size());
  std::vector<uint16_t> ours16(values.size()), oursb(values.size());
  convert_f32_to(DType::Float16, values.data(), ours16.data(), values.size());
  convert_f32_to(DType::BFloat16, values.data(), oursb.data(), values.size());
  int mismatches = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (std::isnan(values[i])) {
      EXPECT_TRUE(std::isnan(fp16_bits_to_f32(ours16[i])));
      EXPECT_TRUE(std::isnan(bf16_bits_to_f32(oursb[i])));
      continue;
    }
    if (ours16[i] != fp16[i] || oursb[i] != bf16[i]) {
      if (++mismatches <= 10) {
        ADD_FAILURE() << "value " << values[i] << " (bits 0x" << std::hex
                      << std::bit_cast<uint32_t>(values[i]) << "): fp16 ours 0x" << ours16[i]
                      << " numpy 0x" << fp16[i] << ", bf16 ours 0x" << oursb[i] << " ref 0x"
                      << bf16[i];
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

}  // namespace
}  // namespace nki
