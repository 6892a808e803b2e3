#include "cli/input_files.h"

#include <filesystem>

#include "base/diagnostic.h"
#include "base/dtype_convert.h"
#include "base/npy.h"

namespace nki::cli {

namespace {

void reject_directory(const std::string& path, const char* expected) {
  std::error_code ec;  // a path that cannot be inspected is left to the reader's own error
  if (std::filesystem::is_directory(path, ec))
    throw IoError("'" + path + "' is a directory, expected " + expected);
}

// Converts a float32 .npy payload to `dt` (the --input PATH:DTYPE contract, RNE rounding).
HostTensor convert_input(const HostTensor& t, DType dt) {
  if (t.dtype == dt) return t;
  HostTensor out;
  out.dtype = dt;
  out.shape = t.shape;
  size_t n = static_cast<size_t>(t.element_count());
  std::vector<float> f(n);
  convert_to_f32(t.dtype, t.data.data(), f.data(), n);
  out.data.resize(n * dtype_size(dt));
  convert_f32_to(dt, f.data(), out.data.data(), n);
  return out;
}

}  // namespace

SourceFilePtr read_kernel_file(const std::string& path) {
  reject_directory(path, "a kernel source file");
  return load_source_file(path);
}

HostTensor read_input_array(const std::string& spec) {
  std::string path = spec;
  std::optional<DType> want;
  // "x.npy:bfloat16"; a colon that is not followed by a dtype name is part of the path.
  if (auto colon = spec.rfind(':'); colon != std::string::npos && colon + 1 < spec.size()) {
    if (auto d = parse_dtype(spec.substr(colon + 1))) {
      want = d;
      path = spec.substr(0, colon);
    }
  }
  reject_directory(path, "a .npy file");
  HostTensor t = read_npy(path);
  return want ? convert_input(t, *want) : t;
}

}  // namespace nki::cli
