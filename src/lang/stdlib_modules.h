// functools / operator / dataclasses stand-ins for the evaluator (see stdlib_modules.cpp).
#pragma once

#include <memory>

#include "lang/value.h"

namespace nki::py {

std::shared_ptr<ModuleObj> make_functools_module();
std::shared_ptr<ModuleObj> make_operator_module();
std::shared_ptr<ModuleObj> make_dataclasses_module();

// Fills `inst` from `args` as the generated __init__ of a @dataclass would.
Ref construct_dataclass(Interp& in, ClassObj& cls, const std::shared_ptr<InstanceObj>& inst, CallArgs& args);

}  // namespace nki::py
