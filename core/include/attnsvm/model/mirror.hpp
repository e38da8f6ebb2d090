// The mirror map of psi(W) = (1/p)||W||_p^p (entrywise) and its inverse (SPEC section 2): the
// geometry of l_p mirror descent, defined in core/src/model/mirror.cpp beside the in-place forms
// the trainers use (model/mirror_internal.hpp).
#pragma once
#include "attnsvm/base/types.hpp"

namespace attnsvm {

Mat mirrorMap(const ConstMatRef& w, double p);
Mat inverseMirrorMap(const ConstMatRef& u, double p);

}  // namespace attnsvm
