// Umbrella header of the attnsvm maths library (attnsvm::core): data, model and gradient, training,
// max-margin solvers with certificates, token-selection analysis, real-image data, the vocabulary
// (wire names and field lists).
// The papers' drivers (scenarios, experiments; attnsvm::experiments) have their own headers:
// attnsvm/scenarios.hpp, attnsvm/experiment*.hpp.
#pragma once
#include "attnsvm/dataset.hpp"
#include "attnsvm/errors.hpp"
#include "attnsvm/fields.hpp"
#include "attnsvm/margin.hpp"
#include "attnsvm/model.hpp"
#include "attnsvm/names.hpp"
#include "attnsvm/real_images.hpp"
#include "attnsvm/rng.hpp"
#include "attnsvm/selection.hpp"
#include "attnsvm/train.hpp"
#include "attnsvm/types.hpp"
