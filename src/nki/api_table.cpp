#include "nki/api_table.h"

#include "nki/api_common.h"

namespace nki::front {

ApiAvailability in_kernel_only(std::string qualified) {
  return [qualified](Tracer& t) {
    if (!t.tracing()) t.api_outside_kernel(qualified);
  };
}

Ref run_api(const ApiRow& row, Tracer& t, py::Interp& in, py::CallArgs& call) {
  if (row.availability) row.availability(t);
  const ApiSignature& s = row.signature;
  Args a(call, row.name, s.params, s.max_positional, s.required);
  return row.run(t, in, a);
}

void add_apis(Tracer& t, py::ModuleObj& m, const std::vector<ApiRow>& rows) {
  for (const ApiRow& row : rows)
    m.set(row.name, make_fn(row.name, [&t, &row](py::Interp& in, py::CallArgs& call) -> Ref {
      return run_api(row, t, in, call);
    }));
}

const ApiRow* find_api(const std::vector<ApiRow>& rows, const std::string& name) {
  for (const ApiRow& row : rows)
    if (name == row.name) return &row;
  return nullptr;
}

}  // namespace nki::front
