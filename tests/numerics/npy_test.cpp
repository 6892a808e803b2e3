// .npy reading/writing: byte-level round trips, files written by NumPy itself, files read back
// by NumPy, and every malformed-file error.
#include "base/npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>

#include "base/diagnostic.h"
#include "base/dtype_convert.h"
#include "python_numpy.h"

namespace nki {
namespace {

using testing::TempDir;

template <typename T>
HostTensor make(DType dt, std::vector<int64_t> shape, const std::vector<T>& values) {
  HostTensor t;
  t.dtype = dt;
  t.shape = std::move(shape);
  t.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

template <typename T>
std::vector<T> values_of(const HostTensor& t) {
  std::vector<T> v(t.data.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

std::vector<uint8_t> bytes_of(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

// A version-1.0 file with the given header text (no padding) and data bytes.
std::vector<uint8_t> v1_file(const std::string& header, const std::vector<uint8_t>& data) {
  std::vector<uint8_t> out = bytes_of(std::string("\x93NUMPY\x01\x00", 8));
  out.push_back(static_cast<uint8_t>(header.size() & 0xff));
  out.push_back(static_cast<uint8_t>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

// Expects decode_npy to throw IoError whose message names the file and contains `needle`.
void expect_error(const std::vector<uint8_t>& bytes, const std::string& needle) {
  try {
    decode_npy(bytes, "bad.npy");
    ADD_FAILURE() << "no error; expected one mentioning '" << needle << "'";
  } catch (const IoError& e) {
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind("bad.npy: ", 0), 0u) << msg;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  }
}

TEST(Npy, EncodesTheDocumentedLayout) {
  auto t = make<float>(DType::Float32, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto bytes = encode_npy(t);
  ASSERT_EQ(bytes.size(), 128u + 24u);  // header padded to 128 bytes (as NumPy does), then 6 floats
  EXPECT_EQ(std::memcmp(bytes.data(), "\x93NUMPY\x01\x00", 8), 0);
  EXPECT_EQ(bytes[8] | (bytes[9] << 8), 128 - 10);
  std::string header(bytes.begin() + 10, bytes.begin() + 128);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0), 0u);
  EXPECT_EQ(header.back(), '\n');
  float second;
  std::memcpy(&second, bytes.data() + 132, 4);
  EXPECT_EQ(second, 2.0f);
}

TEST(Npy, RoundTripsEveryNativeDtype) {
  auto check = [](const HostTensor& t) {
    HostTensor back = decode_npy(encode_npy(t), "mem");
    EXPECT_EQ(back.dtype, t.dtype) << dtype_name(t.dtype);
    EXPECT_EQ(back.shape, t.shape);
    EXPECT_EQ(back.data, t.data);
  };
  check(make<float>(DType::Float32, {3}, {1.5f, -2.0f, 1e-30f}));
  check(make<uint16_t>(DType::Float16, {2, 1}, {0x3C00, 0xFC00}));
  check(make<int8_t>(DType::Int8, {2}, {-128, 127}));
  check(make<int16_t>(DType::Int16, {1, 2}, {-300, 300}));
  check(make<int32_t>(DType::Int32, {2}, {-2147483647 - 1, 2147483647}));
  check(make<uint8_t>(DType::UInt8, {2}, {0, 255}));
  check(make<uint16_t>(DType::UInt16, {2}, {0, 65535}));
  check(make<uint32_t>(DType::UInt32, {2}, {0, 4294967295u}));
  check(make<uint8_t>(DType::Bool, {2, 2}, {0, 1, 1, 0}));
  check(make<float>(DType::Float32, {}, {42.0f}));          // 0-d scalar
  check(make<float>(DType::Float32, {0, 4}, {}));           // empty
  check(make<float>(DType::Float32, {1, 1, 1, 1, 2}, {1, 2}));
}

TEST(Npy, NarrowFloatsAreWrittenAsExactFloat32) {
  auto bf = make<uint16_t>(DType::BFloat16, {2}, {0x3F80, 0x4049});  // 1.0, 3.140625
  HostTensor back = decode_npy(encode_npy(bf), "mem");
  EXPECT_EQ(back.dtype, DType::Float32);
  EXPECT_EQ(values_of<float>(back), (std::vector<float>{1.0f, 3.140625f}));
  auto e4 = make<uint8_t>(DType::Float8E4M3, {2}, {0x77, 0xF8});  // 240, -inf
  back = decode_npy(encode_npy(e4), "mem");
  EXPECT_EQ(values_of<float>(back), (std::vector<float>{240.0f, -std::numeric_limits<float>::infinity()}));
  auto tf = make<float>(DType::TFloat32, {1}, {1.5f});
  back = decode_npy(encode_npy(tf), "mem");
  EXPECT_EQ(back.dtype, DType::Float32);
  EXPECT_EQ(values_of<float>(back), std::vector<float>{1.5f});
}

TEST(Npy, Bf16RawBitsOption) {
  auto bf = make<uint16_t>(DType::BFloat16, {2}, {0x3F80, 0x7FC1});
  NpyWriteOptions opts;
  opts.bf16_as_raw_bits = true;
  HostTensor back = decode_npy(encode_npy(bf, opts), "mem");
  EXPECT_EQ(back.dtype, DType::UInt16);
  EXPECT_EQ(values_of<uint16_t>(back), (std::vector<uint16_t>{0x3F80, 0x7FC1}));
}

TEST(Npy, WideTypesAreNarrowed) {
  std::vector<uint8_t> d8(16);
  double dv[2] = {0.1, 1e300};
  std::memcpy(d8.data(), dv, 16);
  HostTensor t = decode_npy(v1_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n", d8), "f8");
  EXPECT_EQ(t.dtype, DType::Float32);
  auto fv = values_of<float>(t);
  EXPECT_EQ(fv[0], 0.1f);
  EXPECT_EQ(fv[1], std::numeric_limits<float>::infinity());
  int64_t iv[2] = {-5, 2147483647};
  std::memcpy(d8.data(), iv, 16);
  t = decode_npy(v1_file("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }\n", d8), "i8");
  EXPECT_EQ(t.dtype, DType::Int32);
  EXPECT_EQ(values_of<int32_t>(t), (std::vector<int32_t>{-5, 2147483647}));
  iv[1] = 2147483648LL;
  std::memcpy(d8.data(), iv, 16);
  expect_error(v1_file("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }\n", d8),
               "2147483648 at flat index 1 does not fit in int32");
  uint64_t uv[2] = {7, 1ull << 40};
  std::memcpy(d8.data(), uv, 16);
  expect_error(v1_file("{'descr': '<u8', 'fortran_order': False, 'shape': (2,), }\n", d8),
               "does not fit in uint32");
}

TEST(Npy, AcceptsKeyOrderQuotesAndVersions) {
  std::vector<uint8_t> data = {1, 0, 2, 0};
  HostTensor t = decode_npy(
      v1_file("{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"<i2\"}    \n", data), "q");
  EXPECT_EQ(t.dtype, DType::Int16);
  EXPECT_EQ(values_of<int16_t>(t), (std::vector<int16_t>{1, 2}));
  // Version 2.0: 4-byte header length.
  std::string header = "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }\n";
  std::vector<uint8_t> v2 = bytes_of(std::string("\x93NUMPY\x02\x00", 8));
  for (int i = 0; i < 4; ++i) v2.push_back(static_cast<uint8_t>(header.size() >> (8 * i)));
  v2.insert(v2.end(), header.begin(), header.end());
  v2.insert(v2.end(), {9, 8, 7});
  t = decode_npy(v2, "v2");
  EXPECT_EQ(t.data, (std::vector<uint8_t>{9, 8, 7}));
  v2[6] = 3;  // 3.0 has the same layout (UTF-8 header)
  t = decode_npy(v2, "v3");
  EXPECT_EQ(t.shape, std::vector<int64_t>{3});
  // Bool bytes are normalised to 0/1.
  t = decode_npy(v1_file("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }\n", {0, 5}), "b");
  EXPECT_EQ(t.data, (std::vector<uint8_t>{0, 1}));
}

TEST(Npy, MalformedFilesAreClearErrors) {
  const std::vector<uint8_t> four = {0, 0, 0, 0};
  expect_error({}, "bad magic");
  expect_error(bytes_of("PK\x03\x04 not numpy at all"), "bad magic");
  expect_error(bytes_of(std::string("\x93NUMPY\x04\x00\x10\x00", 10)), "unsupported format version 4.0");
  expect_error(bytes_of(std::string("\x93NUMPY\x02\x00\x10", 9)), "header length field");
  expect_error(bytes_of(std::string("\x93NUMPY\x01\x00\xff\x00{}", 12)), "runs past the end");
  expect_error(v1_file("['descr']\n", {}), "malformed header");
  expect_error(v1_file("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)\n", four), "malformed header");
  expect_error(v1_file("{'descr': '<f4', 'fortran_order': False}\n", four), "no 'shape'");
  expect_error(v1_file("{'fortran_order': False, 'shape': (1,)}\n", four), "no 'descr'");
  expect_error(v1_file("{'descr': '<f4', 'shape': (1,)}\n", four), "no 'fortran_order'");
  expect_error(v1_file("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }\n", four), "fortran_order=True");
  expect_error(v1_file("{'descr': '<f4', 'fortran_order': maybe, 'shape': (1,), }\n", four), "True or False");
  expect_error(v1_file("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }\n", four), "big-endian");
  expect_error(v1_file("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }\n", four), "object arrays");
  expect_error(v1_file("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }\n", four), "structured");
  expect_error(v1_file("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }\n", four), "unsupported dtype '<c8'");
  expect_error(v1_file("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }\n", four), "dimension");
  expect_error(v1_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n", four),
               "truncated data: shape (2, 3) needs 24 bytes after the header, the file has 4");
  expect_error(v1_file("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }\n", four),
               "truncated data");
  expect_error(v1_file("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}\n", four),
               "unexpected key 'extra'");
  expect_error(v1_file("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } junk\n", four),
               "after the header dict");
}

TEST(Npy, FileErrorsNameThePath) {
  TempDir dir;
  try {
    read_npy(dir.file("missing.npy"));
    ADD_FAILURE() << "no error";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("missing.npy: cannot read file"), std::string::npos) << e.what();
  }
  HostTensor bad = make<float>(DType::Float32, {3}, {1.0f});  // 4 bytes for 3 elements
  EXPECT_THROW(encode_npy(bad), IoError);
  EXPECT_THROW(write_npy(dir.file("no/such/dir/x.npy"), make<float>(DType::Float32, {1}, {1.0f})), IoError);
  std::ofstream(dir.file("short.npy")) << "\x93NUMPY";
  try {
    read_npy(dir.file("short.npy"));
    ADD_FAILURE() << "no error";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("short.npy: invalid .npy file: bad magic"), std::string::npos) << e.what();
  }
}

TEST(Npy, WriteThenReadFile) {
  TempDir dir;
  auto t = make<int16_t>(DType::Int16, {2, 2}, {1, -2, 3, -4});
  write_npy(dir.file("t.npy"), t);
  HostTensor back = read_npy(dir.file("t.npy"));
  EXPECT_EQ(back.shape, t.shape);
  EXPECT_EQ(back.data, t.data);
}

// Corrupted input must give a well-formed tensor or an IoError, never a crash or another
// exception type: every truncation of a valid file, then random byte corruptions.
TEST(Npy, CorruptedFilesNeverCrash) {
  auto valid = encode_npy(make<int16_t>(DType::Int16, {3, 2}, {1, 2, 3, 4, 5, 6}));
  auto check = [](const std::vector<uint8_t>& bytes) {
    try {
      HostTensor t = decode_npy(bytes, "fuzz.npy");
      EXPECT_EQ(t.data.size(), static_cast<size_t>(t.element_count()) * dtype_size(t.dtype));
    } catch (const IoError&) {
    }
  };
  for (size_t len = 0; len < valid.size(); ++len) {
    std::vector<uint8_t> cut(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(len));
    EXPECT_THROW(decode_npy(cut, "cut.npy"), IoError) << len;  // every prefix is incomplete
  }
  std::mt19937 rng(99);
  const char* interesting = "{}(),:'\"0123456789 TrueFalse<|>fiub";
  for (int iter = 0; iter < 3000; ++iter) {
    auto bytes = valid;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = rng() % bytes.size();
      bytes[pos] = (rng() & 1) ? static_cast<uint8_t>(rng())
                               : static_cast<uint8_t>(interesting[rng() % std::strlen(interesting)]);
    }
    check(bytes);
  }
}

// Files written by NumPy itself, for each supported stored dtype and format version.
TEST(NpyNumpy, ReadsFilesWrittenByNumpy) {
  if (!testing::python_numpy_available()) GTEST_SKIP() << "/usr/bin/python3 with numpy not found";
  TempDir dir;
  const char* script = R"PY(
import sys, numpy as np
d = sys.argv[1]
base = np.arange(6).reshape(2, 3)
for code in ["<f2", "<f4", "<f8", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8"]:
    np.save(d + "/t_" + code[1:] + ".npy", (base - (0 if code[1] in "uf" else 2)).astype(code) * (1 if code[1] != "f" else 1.5))
np.save(d + "/t_b1.npy", np.array([[True, False, True], [False, False, True]]))
np.save(d + "/scalar.npy", np.float32(2.5))
np.save(d + "/empty.npy", np.zeros((0, 5), np.float32))
for v in [(2, 0), (3, 0)]:
    with open(d + "/v%d.npy" % v[0], "wb") as f:
        np.lib.format.write_array(f, np.array([1.0, 2.0], np.float32), version=v)
np.save(d + "/fortran.npy", np.asfortranarray(np.ones((2, 3), np.float32)))
np.save(d + "/big.npy", np.ones(3, ">f4"))
np.save(d + "/obj.npy", np.array([1, "a"], dtype=object), allow_pickle=True)
np.save(d + "/cplx.npy", np.ones(2, np.complex64))
big = np.zeros(4, np.float32)
np.save(d + "/trunc.npy", big)
raw = open(d + "/trunc.npy", "rb").read()
open(d + "/trunc.npy", "wb").write(raw[:-3])
)PY";
  ASSERT_EQ(testing::run_python(dir, script), 0);
  const std::vector<int64_t> shape23 = {2, 3};
  auto f16 = read_npy(dir.file("t_f2.npy"));
  EXPECT_EQ(f16.dtype, DType::Float16);
  EXPECT_EQ(f16.shape, shape23);
  EXPECT_EQ(fp16_bits_to_f32(values_of<uint16_t>(f16)[5]), 7.5f);
  for (const char* code : {"f4", "f8"}) {
    auto t = read_npy(dir.file(std::string("t_") + code + ".npy"));
    EXPECT_EQ(t.dtype, DType::Float32);
    EXPECT_EQ(values_of<float>(t), (std::vector<float>{0, 1.5f, 3, 4.5f, 6, 7.5f})) << code;
  }
  EXPECT_EQ(values_of<int8_t>(read_npy(dir.file("t_i1.npy"))), (std::vector<int8_t>{-2, -1, 0, 1, 2, 3}));
  EXPECT_EQ(values_of<int16_t>(read_npy(dir.file("t_i2.npy"))), (std::vector<int16_t>{-2, -1, 0, 1, 2, 3}));
  EXPECT_EQ(values_of<int32_t>(read_npy(dir.file("t_i4.npy"))), (std::vector<int32_t>{-2, -1, 0, 1, 2, 3}));
  auto i8 = read_npy(dir.file("t_i8.npy"));
  EXPECT_EQ(i8.dtype, DType::Int32);
  EXPECT_EQ(values_of<int32_t>(i8), (std::vector<int32_t>{-2, -1, 0, 1, 2, 3}));
  EXPECT_EQ(values_of<uint8_t>(read_npy(dir.file("t_u1.npy"))), (std::vector<uint8_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(values_of<uint16_t>(read_npy(dir.file("t_u2.npy"))), (std::vector<uint16_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(values_of<uint32_t>(read_npy(dir.file("t_u4.npy"))), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5}));
  auto u8 = read_npy(dir.file("t_u8.npy"));
  EXPECT_EQ(u8.dtype, DType::UInt32);
  EXPECT_EQ(values_of<uint32_t>(u8), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5}));
  auto b = read_npy(dir.file("t_b1.npy"));
  EXPECT_EQ(b.dtype, DType::Bool);
  EXPECT_EQ(b.data, (std::vector<uint8_t>{1, 0, 1, 0, 0, 1}));
  auto s = read_npy(dir.file("scalar.npy"));
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(values_of<float>(s), std::vector<float>{2.5f});
  auto e = read_npy(dir.file("empty.npy"));
  EXPECT_EQ(e.shape, (std::vector<int64_t>{0, 5}));
  EXPECT_TRUE(e.data.empty());
  for (const char* v : {"v2.npy", "v3.npy"}) {
    EXPECT_EQ(values_of<float>(read_npy(dir.file(v))), (std::vector<float>{1.0f, 2.0f})) << v;
  }
  auto expect_file_error = [&](const char* file, const char* needle) {
    try {
      read_npy(dir.file(file));
      ADD_FAILURE() << file << ": no error";
    } catch (const IoError& err) {
      std::string msg = err.what();
      EXPECT_NE(msg.find(file), std::string::npos) << msg;
      EXPECT_NE(msg.find(needle), std::string::npos) << msg;
    }
  };
  expect_file_error("fortran.npy", "fortran_order=True");
  expect_file_error("big.npy", "big-endian");
  expect_file_error("obj.npy", "object arrays");
  expect_file_error("cplx.npy", "unsupported dtype");
  expect_file_error("trunc.npy", "truncated data");
}

// Files written by us, checked by NumPy.
TEST(NpyNumpy, NumpyReadsOurFiles) {
  if (!testing::python_numpy_available()) GTEST_SKIP() << "/usr/bin/python3 with numpy not found";
  TempDir dir;
  write_npy(dir.file("f32.npy"), make<float>(DType::Float32, {2, 2}, {1, 2, 3, 4}));
  write_npy(dir.file("bf16.npy"), make<uint16_t>(DType::BFloat16, {3}, {0x3F80, 0x4049, 0xC000}));
  NpyWriteOptions raw;
  raw.bf16_as_raw_bits = true;
  write_npy(dir.file("bf16raw.npy"), make<uint16_t>(DType::BFloat16, {3}, {0x3F80, 0x4049, 0xC000}), raw);
  write_npy(dir.file("f16.npy"), make<uint16_t>(DType::Float16, {1}, {0x3555}));
  write_npy(dir.file("i32.npy"), make<int32_t>(DType::Int32, {}, {-7}));
  write_npy(dir.file("b.npy"), make<uint8_t>(DType::Bool, {2}, {1, 0}));
  write_npy(dir.file("u16.npy"), make<uint16_t>(DType::UInt16, {1, 1, 2}, {65535, 1}));
  write_npy(dir.file("e5.npy"), make<uint8_t>(DType::Float8E5M2, {1}, {0x7B}));
  // A shape long enough to need padding care: many dimensions.
  write_npy(dir.file("many.npy"), make<float>(DType::Float32, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {3}));
  const char* script = R"PY(
import sys, numpy as np
d = sys.argv[1]
def load(n):
    return np.load(d + "/" + n)
a = load("f32.npy"); assert a.dtype == np.float32 and a.shape == (2, 2) and a[1, 0] == 3, a
a = load("bf16.npy"); assert a.dtype == np.float32 and list(a) == [1.0, 3.140625, -2.0], a
a = load("bf16raw.npy"); assert a.dtype == np.uint16 and list(a) == [0x3F80, 0x4049, 0xC000], a
a = load("f16.npy"); assert a.dtype == np.float16 and a.view(np.uint16)[0] == 0x3555, a
a = load("i32.npy"); assert a.dtype == np.int32 and a.shape == () and a == -7, a
a = load("b.npy"); assert a.dtype == np.bool_ and list(a) == [True, False], a
a = load("u16.npy"); assert a.dtype == np.uint16 and a.shape == (1, 1, 2) and a[0, 0, 0] == 65535, a
a = load("e5.npy"); assert a.dtype == np.float32 and a[0] == 57344.0, a
a = load("many.npy"); assert a.shape == (1,) * 20 and a.flat[0] == 3, a
for n in ["f32.npy", "many.npy"]:
    assert len(open(d + "/" + n, "rb").read()) % 4 == 0
    with open(d + "/" + n, "rb") as f:
        v = np.lib.format.read_magic(f); np.lib.format._read_array_header(f, v)
        assert f.tell() % 64 == 0, f.tell()
)PY";
  EXPECT_EQ(testing::run_python(dir, script), 0);
}

}  // namespace
}  // namespace nki
