// The hardware a kernel is compiled, simulated and costed for: one description per NeuronCore
// generation, read by every layer (front-end tile-size checks, the SBUF/PSUM capacity and
// direct-allocation checks, the simulator, the cost model's geometry, the CLI's --target).
// The bottom layer: depends on nothing.
//
// Doc paths: "2.24:" is the SDK 2.24 tree of aws-neuron-sdk (general/nki/...), "current:" its
// current tree (nki/...).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace nki {

enum class Target { Trn1, Trn2 };

struct TargetDesc {
  Target target;
  const char* name;         // "trn1": the --target name, also in diagnostics and reports
  const char* neuron_core;  // "NeuronCore-v2"
  // nisa.get_nc_version(): the nisa.nc_version value (gen2 = 2, gen3 = 3).
  int nc_version;

  // SBUF and PSUM are two-dimensional, 128 partitions each (2.24:
  // general/nki/arch/trainium_inferentia2_arch.rst, "Memory-wise, a NeuronCore-v2 ...";
  // current: nki/guides/architecture/trainium2_arch.rst, "128 partitions of 224KiB").
  int64_t partitions;
  // Bytes per partition of the physical SBUF: 192 KiB on NeuronCore-v2 (24 MiB / 128,
  // trainium_inferentia2_arch.rst), 224 KiB on NeuronCore-v3 (28 MiB / 128, trainium2_arch.rst;
  // the 2.24 Trainium2 page does not give it).
  int64_t sbuf_partition_bytes;
  // Bytes per partition that directly allocated SBUF tiles may address: the physical size less
  // the 16 KiB the compiler keeps for itself on NeuronCore-v2 ("192KiB-16KiB=(192-16)*1024",
  // 2.24: general/nki/nki_direct_allocation_guide.rst). That guide covers NeuronCore-v2 only;
  // the NeuronCore-v3 reserve is not documented, so the physical 224 KiB is used there.
  int64_t sbuf_direct_alloc_bytes;
  // PSUM: 16 KiB per partition (trainium_inferentia2_arch.rst; "PSUM capacity remains the same"
  // on NeuronCore-v3, trainium2_arch.rst), in 8 banks ("PSUM in each NeuronCore has eight
  // banks", nki_direct_allocation_guide.rst) of 2 KiB: one bank holds the 512 fp32 elements per
  // partition one nc_matmul may write (trainium_inferentia2_arch.rst, "Tile Size").
  int64_t psum_partition_bytes;
  int64_t psum_banks;
  int64_t psum_bank_bytes;

  // nl.tile_size (2.24: general/nki/api/nki/language/__init__.py class tile_size; values from
  // trainium_inferentia2_arch.rst "Tile Size" and the nisa.bn_stats docstring in
  // general/nki/api/nki/isa/__init__.py): the largest partition dimension of a tile, the fp32
  // elements per partition of one PSUM bank, the largest free size of the matmul stationary
  // operand (PE columns) and moving operand (one PSUM bank), and of bn_stats' input.
  int64_t pmax;
  int64_t psum_fmax;
  int64_t gemm_stationary_fmax;
  int64_t gemm_moving_fmax;
  int64_t bn_stats_fmax;
};

const TargetDesc& describe(Target t);
inline const char* target_name(Target t) { return describe(t).name; }

// A --target value: the chip names (trn1, trn2, inf2) or the NeuronCore generation names
// (gen2 = NeuronCore-v2, gen3 = NeuronCore-v3). Nothing for any other text.
std::optional<Target> parse_target(std::string_view text);
// Every name parse_target accepts, the chip names first (the choices --help lists).
const std::vector<std::string_view>& target_names();

}  // namespace nki
