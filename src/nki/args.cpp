#include "nki/args.h"

#include "base/diag_codes.h"
#include "nki/tracer.h"

namespace nki::front {

Args::Args(py::CallArgs& call, std::string api, const std::vector<const char*>& names, size_t max_positional,
           size_t required)
    : api_(std::move(api)) {
  std::vector<std::string> n(names.begin(), names.end());
  values_.assign(n.size(), nullptr);
  if (call.pos.size() > max_positional)
    nki_error(diag::Code::invalid_arguments, "'" + api_ + "' takes at most " + std::to_string(max_positional) +
                                           " positional arguments but " + std::to_string(call.pos.size()) +
                                           " were given",
              "pass the remaining arguments by keyword");
  for (size_t i = 0; i < call.pos.size(); ++i) values_[i] = call.pos[i];
  for (auto& [k, v] : call.kw) {
    for (size_t i = 0; i < n.size(); ++i) {
      if (n[i] == k) {
        if (values_[i] && i < call.pos.size())
          nki_error(diag::Code::invalid_arguments, "'" + api_ + "' got multiple values for argument '" + k + "'");
        values_[i] = v;
      }
    }
  }
  for (size_t i = 0; i < required && i < n.size(); ++i)
    if (!values_[i])
      nki_error(diag::Code::invalid_arguments, "'" + api_ + "' missing required argument '" + n[i] + "'");
}

}  // namespace nki::front
