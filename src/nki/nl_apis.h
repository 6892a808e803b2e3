// nl (SDK 2.24) index helpers, tensor creation, data movement and compute APIs as binder + emitter
// pairs (api_table.h), registered by make_nl_module (api_nl.cpp): shared/docs/nki-spec.md
// §2.2–§2.9. Each row's typed argument struct, binder and emitter live in its .cpp file; the
// rows are the interface (the current dialect runs them, nki_current/api_language.cpp). The
// operator-valued functions (nl.add, nl.exp, nl.sum, ...: make_alu_fn & co.) are tables of
// their own in api_nl.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "nki/api_table.h"

namespace nki::front::nl {

// The rows, in registration order.
const std::vector<ApiRow>& index_apis();     // nl_index.cpp: ds, program_id, num_programs
const std::vector<ApiRow>& creation_apis();  // nl_create.cpp
const std::vector<ApiRow>& movement_apis();  // nl_movement.cpp
const std::vector<ApiRow>& compute_apis();   // nl_compute.cpp
const std::vector<ApiRow>& compound_apis();  // api_nl_compound.cpp: mean, var, softmax, rms_norm, where
const std::vector<ApiRow>& custom_apis();    // api_custom.cpp: device_print, random_seed, gather_flattened, dropout, rand
// All of the above.
const std::vector<const std::vector<ApiRow>*>& all_tables();

// ---- nl_create.cpp: ndarray, zeros, ones, full, empty_like, zeros_like
struct CreateTensor {
  std::string api;
  std::vector<int64_t> shape;
  int partition_dim;
  DType dtype;
  ir::Buffer buffer;
  const BufferObj* placed;  // a direct-allocation buffer with a placement, else null
  std::string name;
  std::optional<double> fill;
};
// The buffer rules of tensor creation (create_tensor in api_common.h is bind + emit).
CreateTensor bind_create(Tracer& t, const std::string& api, py::Interp& in, const Ref& shape, const Ref& dtype,
                         const Ref& buffer, const Ref& name, std::optional<double> fill);
Ref emit_create(Tracer& t, const CreateTensor& a);

}  // namespace nki::front::nl
