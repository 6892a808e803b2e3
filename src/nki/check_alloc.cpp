#include "nki/check_alloc.h"

#include <algorithm>
#include <string>
#include <vector>

#include "base/diag_codes.h"
#include "nki/lowering.h"
#include "nki/tracer.h"

namespace nki::front {

namespace {

constexpr int64_t kMaxEvaluatedTiles = 1 << 16;

std::string tuple_str(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

// The modulo allocation of the official Python reference (test_sbuf_modulo_alloc.py,
// test_psum_modulo_alloc.py): base + linearize(shape, idx % shape) * scale, where an empty shape
// means (1, 1, ...), i.e. every block gets `base`.
int64_t modulo(int64_t base, const std::vector<int64_t>& shape, int64_t scale, const std::vector<int64_t>& idx) {
  if (shape.empty()) return base;
  int64_t lin = 0;
  for (size_t d = 0; d < idx.size() && d < shape.size(); ++d) lin = lin * shape[d] + idx[d] % shape[d];
  return base + lin * scale;
}

void check_tile(const DirectTensor& r, const TilePlacement& p, const std::vector<int64_t>& idx, int64_t sbuf_limit,
                Target target) {
  const std::string where = "logical tile " + tuple_str(idx);
  if (r.buffer == ir::Buffer::Psum) {
    // nki/compiler/psum.py alloc(): bank_id selects one of the 8 banks; "start_partition and
    // byte_addr must both be 0" in the current release (also nki_direct_allocation_guide.rst,
    // Known Limitations #2).
    const int64_t banks = nki::describe(target).psum_banks;
    if (p.bank < 0 || p.bank >= banks)
      nki_error(diag::Code::allocation_out_of_bounds,
                where + " is placed in PSUM bank " + std::to_string(p.bank) + ", but PSUM has banks 0 to " + std::to_string(banks - 1),
                "choose base_bank / num_bank_tiles so that every tile lands in banks 0.." + std::to_string(banks - 1));
    if (p.start_partition != 0 || p.byte_addr != 0)
      nki_error(diag::Code::invalid_allocation,
                where + " is placed at start_partition " + std::to_string(p.start_partition) + ", byte_addr " +
                    std::to_string(p.byte_addr) + " of its PSUM bank; both must be 0",
                "give every PSUM tile a bank of its own, starting at partition 0 and byte 0");
    return;
  }
  // nki/compiler/sbuf.py alloc() / nki_direct_allocation_guide.rst: start-partition ISA rules.
  const int64_t n = r.pdim_size;
  const int64_t sp = p.start_partition;
  const bool ok = n > 64 ? sp == 0 : n > 32 ? (sp == 0 || sp == 64) : (sp == 0 || sp == 32 || sp == 64 || sp == 96);
  if (!ok)
    nki_error(diag::Code::invalid_allocation,
              where + " of " + std::to_string(n) + " partitions starts at partition " + std::to_string(sp) +
                  "; a tile of " + (n > 64 ? "more than 64 partitions must start at 0"
                                    : n > 32 ? "33 to 64 partitions must start at 0 or 64"
                                             : "at most 32 partitions must start at 0, 32, 64 or 96"),
              "return a valid start_partition from the allocation function (num_par_tiles only for tiles "
              "of at most 64 partitions)");
  // Valid byte_addr: [0, sbuf_direct_alloc_bytes); the tile must stay inside that range.
  if (p.byte_addr < 0 || p.byte_addr + r.fdim_bytes > sbuf_limit)
    nki_error(diag::Code::allocation_out_of_bounds,
              where + " occupies bytes [" + std::to_string(p.byte_addr) + ", " +
                  std::to_string(p.byte_addr + r.fdim_bytes) + ") of each SBUF partition, outside the " +
                  std::to_string(sbuf_limit / 1024) + " KiB available to direct allocation on " +
                  target_name(target),
              "lower base_addr / num_free_tiles, or use smaller tiles");
}

std::vector<int64_t> need_tuple(const Ref& r, const std::string& api, const char* name) {
  std::vector<int64_t> out;
  if (!r || py::is_none(r)) return out;
  auto* seq = dynamic_cast<py::SeqObj*>(r.get());
  if (!seq)
    nki_error(diag::Code::invalid_allocation, "'" + std::string(name) + "' of " + api + " must be a tuple of integers, got " +
                                        r->repr());
  for (const Ref& e : seq->items) {
    auto v = static_int(e);
    if (!v)
      nki_error(diag::Code::invalid_allocation, "'" + std::string(name) + "' of " + api +
                                          " must be a tuple of compile-time integers, got " + r->repr());
    if (*v <= 0)
      nki_error(diag::Code::invalid_allocation, "'" + std::string(name) + "' of " + api + " must hold positive tile counts, got " +
                                          r->repr());
    out.push_back(*v);
  }
  return out;
}

}  // namespace

DirectTensor place_direct_tensor(Tracer& t, const DirectAllocSpec& spec, ir::Buffer buf,
                                 const std::vector<int64_t>& shape, int pdim, DType dtype, int tensor_id) {
  DirectTensor r;
  r.tensor = tensor_id;
  r.buffer = buf;
  const size_t p = static_cast<size_t>(pdim);
  const std::vector<int64_t> blocks(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(p));
  r.pdim_size = shape[p];
  r.fdim_bytes = static_cast<int64_t>(dtype_size(dtype));
  for (size_t i = p + 1; i < shape.size(); ++i) r.fdim_bytes *= shape[i];
  const std::string api = std::string("ncc.") + (buf == ir::Buffer::Psum ? "psum" : "sbuf") +
                          (spec.func ? ".alloc" : ".mod_alloc");
  if (!spec.func) {
    // nki/compiler/sbuf.py, psum.py mod_alloc(): "The length of the tuple must be empty or equal
    // to the length of block dimension for the tensor."
    for (auto [name, v] : {std::pair<const char*, const std::vector<int64_t>*>{"num_bank_tiles", &spec.num_bank_tiles},
                           {"num_par_tiles", &spec.num_par_tiles},
                           {"num_free_tiles", &spec.num_free_tiles}})
      if (!v->empty() && v->size() != blocks.size())
        nki_error(diag::Code::invalid_allocation,
                  std::string(name) + "=" + tuple_str(*v) + " of " + api + " has " + std::to_string(v->size()) +
                      " entries, but the tensor " + shape_str(shape) + " has " + std::to_string(blocks.size()) +
                      " block dimension(s); the tuple must be empty or have one entry per block dimension",
                  blocks.empty() ? "declare the block dimension in front of nl.par_dim, e.g. (2, nl.par_dim(128), 512)"
                                 : "give one tile count per block dimension");
  }
  int64_t count = 1;
  for (int64_t b : blocks) count *= b;
  if (count <= 0 || count > kMaxEvaluatedTiles) return r;
  const int64_t sbuf_limit = nki::describe(t.target()).sbuf_direct_alloc_bytes;
  std::vector<int64_t> idx(blocks.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    if (n > 0)
      for (size_t d = blocks.size(); d-- > 0;) {
        if (++idx[d] < blocks[d]) break;
        idx[d] = 0;
      }
    TilePlacement pl;
    if (spec.func) {
      // The allocation function: func(idx_tuple, pdim_size, fdim_size) returns
      // (start_partition, byte_addr) for SBUF and (bank_id, start_partition, byte_addr) for PSUM
      // (nki/compiler/sbuf.py, psum.py alloc()).
      std::vector<Ref> items;
      for (int64_t i : idx) items.push_back(py::make_int(i));
      // By keyword first, with the docstring's parameter names: the official nki-samples
      // allocated attention kernel passes functools.partial(f, bank_map=...) whose remaining
      // parameters only bind by name. Functions with other parameter names get the positional
      // call.
      Ref res;
      try {
        py::CallArgs kw;
        kw.kw = {{"idx", py::make_tuple(items)},
                 {"pdim_size", py::make_int(r.pdim_size)},
                 {"fdim_size", py::make_int(r.fdim_bytes)}};
        kw.loc = t.loc();
        res = t.call(spec.func, kw);
      } catch (const py::PyError& e) {
        if (e.type != "TypeError") throw;
        py::CallArgs args;
        args.pos = {py::make_tuple(items), py::make_int(r.pdim_size), py::make_int(r.fdim_bytes)};
        args.loc = t.loc();
        res = t.call(spec.func, args);
      }
      const size_t want = buf == ir::Buffer::Psum ? 3 : 2;
      auto* seq = dynamic_cast<py::SeqObj*>(res.get());
      if (!seq || seq->items.size() != want)
        nki_error(diag::Code::invalid_allocation,
                  "the allocation function of " + api + " must return " +
                      (want == 3 ? "(bank_id, start_partition, byte_addr)" : "(start_partition, byte_addr)") +
                      ", got " + (res ? res->repr() : std::string("nothing")) + " for block index " + tuple_str(idx));
      std::vector<int64_t> v;
      for (const Ref& e : seq->items) {
        auto x = static_int(e);
        if (!x) {  // not a compile-time integer (e.g. depends on a loop variable): not checked
          r.tiles.clear();
          return r;
        }
        v.push_back(*x);
      }
      if (want == 3) pl = {v[0], v[1], v[2]};
      else pl = {0, v[0], v[1]};
    } else {
      pl.bank = modulo(spec.base_bank, spec.num_bank_tiles, 1, idx);
      pl.start_partition = modulo(spec.base_partition, spec.num_par_tiles, r.pdim_size, idx);
      pl.byte_addr = modulo(spec.base_addr, spec.num_free_tiles, r.fdim_bytes, idx);
    }
    check_tile(r, pl, idx, sbuf_limit, t.target());
    r.tiles.push_back(pl);
  }
  return r;
}

std::shared_ptr<DirectAllocSpec> parse_mod_alloc(ir::Buffer buf, py::CallArgs& call) {
  const bool psum = buf == ir::Buffer::Psum;
  const std::string api = psum ? "ncc.psum.mod_alloc" : "ncc.sbuf.mod_alloc";
  auto spec = std::make_shared<DirectAllocSpec>();
  auto int_arg = [&](const char* name, bool required, int64_t fallback) -> int64_t {
    Ref v = call.take(name);
    if (!v || py::is_none(v)) {
      if (required) nki_error(diag::Code::invalid_allocation, api + " missing required keyword argument '" + name + "'");
      return fallback;
    }
    auto x = static_int(v);
    if (!x) nki_error(diag::Code::invalid_allocation, "'" + std::string(name) + "' of " + api + " must be a compile-time integer, got " + v->repr());
    return *x;
  };
  if (!call.pos.empty())
    nki_error(diag::Code::invalid_allocation, api + " takes keyword arguments only", "write e.g. base_addr=0");
  if (psum) spec->base_bank = int_arg("base_bank", true, 0);
  spec->base_addr = int_arg("base_addr", !psum, 0);
  spec->base_partition = int_arg("base_partition", false, 0);
  if (psum) spec->num_bank_tiles = need_tuple(call.take("num_bank_tiles"), api, "num_bank_tiles");
  spec->num_par_tiles = need_tuple(call.take("num_par_tiles"), api, "num_par_tiles");
  spec->num_free_tiles = need_tuple(call.take("num_free_tiles"), api, "num_free_tiles");
  // "base_partition: ... Must be 0 in the current version." (sbuf.py and psum.py)
  if (spec->base_partition != 0)
    nki_error(diag::Code::invalid_allocation, "base_partition of " + api + " must be 0 in SDK 2.24, got " +
                                        std::to_string(spec->base_partition));
  if (psum) {
    // psum.py: "base_addr ... Must be 0 in the current version"; num_par_tiles and
    // num_free_tiles "Currently must be an empty tuple or (1, 1, ...)".
    if (spec->base_addr != 0)
      nki_error(diag::Code::invalid_allocation, "base_addr of ncc.psum.mod_alloc must be 0 in SDK 2.24, got " +
                                          std::to_string(spec->base_addr),
                "place PSUM tiles by bank (base_bank, num_bank_tiles); each tile starts at byte 0 of its bank");
    for (auto [name, v] : {std::pair<const char*, const std::vector<int64_t>*>{"num_par_tiles", &spec->num_par_tiles},
                           {"num_free_tiles", &spec->num_free_tiles}})
      if (std::any_of(v->begin(), v->end(), [](int64_t n) { return n != 1; }))
        nki_error(diag::Code::invalid_allocation, std::string(name) + " of ncc.psum.mod_alloc must be () or all ones in SDK 2.24, got " +
                                            tuple_str(*v),
                  "use num_bank_tiles to give the tensor several PSUM tiles");
  }
  return spec;
}

}  // namespace nki::front
