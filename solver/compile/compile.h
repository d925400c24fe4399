// compile.h: FacilitySpec (solver/input) -> FacilityModel (solver/compile/model.h)
#pragma once

#include "solver/compile/model.h"
#include "solver/input/spec.h"

namespace dctwin {

// sizes the plate HX from its rated point, valve Kv and case capacities; lays out the state
// vector per CDU loop; jacobian sparsity and coloring. Throws LoadFailure (solver/input/loader.h)
// naming the component when the spec cannot be compiled.
FacilityModel compileFacility(const FacilitySpec& spec);

}  // namespace dctwin
