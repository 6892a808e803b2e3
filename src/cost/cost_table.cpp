#include "cost/cost_table.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace nki::cost {

const std::vector<CostRow>& cost_rows() {
  static const std::vector<CostRow> rows = {
#define COST_ROW(name, trn1, trn2, unit, source) {#name, trn1, trn2, unit, source},
#include "cost/cost_table.def"
#undef COST_ROW
  };
  return rows;
}

namespace {
double* field(CostTable& t, const std::string& name) {
#define COST_ROW(n, trn1, trn2, unit, source) \
  if (name == #n) return &t.n;
#include "cost/cost_table.def"
#undef COST_ROW
  return nullptr;
}
}  // namespace

CostTable default_table(Target target) {
  CostTable t;
  t.target = target;
  for (const CostRow& r : cost_rows()) *field(t, r.name) = target == Target::Trn2 ? r.trn2 : r.trn1;
  return t;
}

void apply_overrides(CostTable& table, const std::string& json_text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json_text);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("cost table overrides are not valid JSON: ") + e.what());
  }
  if (!j.is_object()) throw std::invalid_argument("cost table overrides must be a JSON object {\"row\": number}");
  for (auto it = j.begin(); it != j.end(); ++it) {
    double* f = field(table, it.key());
    if (!f) throw std::invalid_argument("unknown cost table row '" + it.key() + "' (see docs/cost-model.md)");
    if (!it.value().is_number()) throw std::invalid_argument("cost table row '" + it.key() + "' must be a number");
    double v = it.value().get<double>();
    if (!std::isfinite(v) || v < 0) throw std::invalid_argument("cost table row '" + it.key() + "' must be finite and >= 0");
    *f = v;
  }
  // Rows that divide or count must stay positive.
  if (table.pe_ghz <= 0 || table.dve_ghz <= 0 || table.act_ghz <= 0 || table.pool_ghz <= 0 ||
      table.dma_engine_bytes_per_ns <= 0 || table.hbm_gb_per_s <= 0 || table.dma_engines < 1 ||
      table.dma_engines > 64 || table.dma_partitions_per_engine < 1 || table.buffer_instances < 1 ||
      table.buffer_instances > 16 || table.pool_elems_per_cycle_32b <= 0 || table.dma_transpose_efficiency <= 0)
    throw std::invalid_argument("cost table overrides: clocks, bandwidths, engine counts and efficiencies must be > 0 "
                                "(dma_engines <= 64, buffer_instances <= 16)");
}

std::string table_json(const CostTable& table) {
  nlohmann::json j = nlohmann::json::object();
  CostTable copy = table;
  for (const CostRow& r : cost_rows()) j[r.name] = *field(copy, r.name);
  return j.dump(2);
}

}  // namespace nki::cost
