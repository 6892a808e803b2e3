// The coefficients of the Trainium cost model, one table per target (cost_table.def lists every
// row with its source). Loaded once per estimate; overridable by name from a JSON object
// {"dma_latency_ns": 900, ...}.
#pragma once

#include <string>
#include <vector>

#include "target/target.h"

namespace nki::cost {

struct CostTable {
#define COST_ROW(name, trn1, trn2, unit, source) double name = 0;
#include "cost/cost_table.def"
#undef COST_ROW
  Target target = Target::Trn1;
};

struct CostRow {
  const char* name;
  double trn1, trn2;
  const char* unit;
  const char* source;
};
const std::vector<CostRow>& cost_rows();

CostTable default_table(Target t);

// Applies {"row": number, ...} from JSON text; throws std::invalid_argument naming an unknown
// row, a non-number or a non-finite / negative value.
void apply_overrides(CostTable& table, const std::string& json_text);

// The table as JSON (name -> value), e.g. to start an override file.
std::string table_json(const CostTable& table);

}  // namespace nki::cost
