#include "target/target.h"

namespace nki {
namespace {

// Sources of every value: the field comments in target.h.
constexpr int64_t kKiB = 1024;

constexpr TargetDesc kTrn1{
    .target = Target::Trn1,
    .name = "trn1",
    .neuron_core = "NeuronCore-v2",
    .nc_version = 2,
    .partitions = 128,
    .sbuf_partition_bytes = 192 * kKiB,
    .sbuf_direct_alloc_bytes = (192 - 16) * kKiB,
    .psum_partition_bytes = 16 * kKiB,
    .psum_banks = 8,
    .psum_bank_bytes = 2 * kKiB,
    .pmax = 128,
    .psum_fmax = 512,
    .gemm_stationary_fmax = 128,
    .gemm_moving_fmax = 512,
    .bn_stats_fmax = 512,
};

// NeuronCore-v3 changes the SBUF size; PSUM and the tile sizes stay those of NeuronCore-v2.
constexpr TargetDesc kTrn2 = [] {
  TargetDesc d = kTrn1;
  d.target = Target::Trn2;
  d.name = "trn2";
  d.neuron_core = "NeuronCore-v3";
  d.nc_version = 3;
  d.sbuf_partition_bytes = 224 * kKiB;
  d.sbuf_direct_alloc_bytes = d.sbuf_partition_bytes;
  return d;
}();

}  // namespace

const TargetDesc& describe(Target t) { return t == Target::Trn2 ? kTrn2 : kTrn1; }

std::optional<Target> parse_target(std::string_view text) {
  // inf2 has the trn1 NeuronCore (NeuronCore-v2).
  if (text == "trn1" || text == "inf2" || text == "gen2") return Target::Trn1;
  if (text == "trn2" || text == "gen3") return Target::Trn2;
  return std::nullopt;
}

const std::vector<std::string_view>& target_names() {
  static const std::vector<std::string_view> names = {"trn1", "trn2", "inf2", "gen2", "gen3"};
  return names;
}

}  // namespace nki
