#include "train/repairs.h"

#include <sstream>

namespace nki::train {

namespace {

bool replace_first(std::string& s, const std::string& from, const std::string& to) {
  size_t p = s.find(from);
  if (p == std::string::npos) return false;
  s.replace(p, from.size(), to);
  return true;
}

size_t replace_all(std::string& s, const std::string& from, const std::string& to) {
  size_t n = 0;
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) {
    s.replace(p, from.size(), to);
    ++n;
  }
  return n;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string join_lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& l : v) s += l + "\n";
  return s;
}

}  // namespace

const std::vector<Mutation>& mutations() {
  static const std::vector<Mutation> m = {
      {"partition_overflow",
       "A tile has at most 128 partitions (nl.tile_size.pmax), so the row tile size goes back to P = nl.tile_size.pmax."},
      {"missing_store", "The result tile is never written to the output: the nl.store of every tile is restored."},
      {"scope_error",
       "The result tile is defined inside the loop body and cannot be used after the loop: the nl.store moves back "
       "inside the loop, one store per tile."},
      {"psum_accumulate",
       "The contraction is split into K chunks, so every chunk's product must be added into the PSUM tile "
       "(acc += nl.matmul(...)) instead of overwriting it."},
      // No "psum_store" mutation (using the PSUM accumulator without nl.copy): SDK 2.24 allows
      // element-wise operands in PSUM and stores a PSUM tile straight to HBM (nki.errors.rst,
      // err_unsupported_memory: operands "psum|sbuf"; test/test_nki_isa_nc_matmul.py stores the
      // matmul's PSUM tile with nl.store), so no documented rule rejects that kernel.
      {"output_dtype", "The output must have the reference's dtype: the nl.ndarray of the output uses it again."},
      {"mask_off_by_one",
       "The mask of the ragged last tile must keep rows strictly below the row count (rows < R), not rows <= R."},
      {"reduce_axis0",
       "The reduction runs along the free axis (axis=1) of the [rows, columns] tile, not across partitions (axis=0)."},
  };
  return m;
}

std::optional<std::string> apply_mutation(const std::string& kind, const std::string& code) {
  std::string s = code;
  if (kind == "partition_overflow") {
    if (!replace_first(s, "P = nl.tile_size.pmax", "P = 2 * nl.tile_size.pmax")) return std::nullopt;
  } else if (kind == "missing_store") {
    std::vector<std::string> l = lines_of(s), kept;
    bool cut = false;
    for (const auto& x : l) {
      if (!cut && x.find("nl.store(") != std::string::npos) { cut = true; continue; }
      kept.push_back(x);
    }
    if (!cut) return std::nullopt;
    s = join_lines(kept);
  } else if (kind == "scope_error") {
    // Dedent the store by one level: it then runs after the loop, on the loop body's tile.
    std::vector<std::string> l = lines_of(s);
    bool moved = false;
    for (auto& x : l)
      if (!moved && x.find("nl.store(") != std::string::npos && x.rfind("        ", 0) == 0) {
        x = x.substr(4);
        moved = true;
      }
    if (!moved) return std::nullopt;
    s = join_lines(l);
  } else if (kind == "psum_accumulate") {
    if (!replace_first(s, "acc += nl.matmul(", "acc = nl.matmul(")) return std::nullopt;
  } else if (kind == "output_dtype") {
    size_t p = s.find("out = nl.ndarray(");
    if (p == std::string::npos) return std::nullopt;
    size_t e = s.find('\n', p);
    std::string line = s.substr(p, e - p);
    std::string to = line.find("dtype=nl.float32") != std::string::npos ? "dtype=nl.float16" : "dtype=nl.float32";
    if (!replace_first(line, line.find("dtype=nl.float32") != std::string::npos ? "dtype=nl.float32"
                             : line.find("dtype=nl.bfloat16") != std::string::npos ? "dtype=nl.bfloat16"
                                                                                  : "dtype=nl.float16",
                       to))
      return std::nullopt;
    s.replace(p, e - p, line);
  } else if (kind == "mask_off_by_one") {
    // "(rows < R)" -> "(rows <= R)" in every load and store of the ragged tile.
    size_t n = 0;
    for (size_t p = s.find("mask=(rows < "); p != std::string::npos; p = s.find("mask=(rows < ", p + 1)) {
      s.replace(p, 13, "mask=(rows <= ");
      ++n;
    }
    if (n == 0) return std::nullopt;
  } else if (kind == "reduce_axis0") {
    if (!replace_first(s, "axis=1, keepdims=True", "axis=0, keepdims=True")) return std::nullopt;
  } else {
    return std::nullopt;
  }
  (void)replace_all;
  if (s == code) return std::nullopt;
  return s;
}

}  // namespace nki::train
