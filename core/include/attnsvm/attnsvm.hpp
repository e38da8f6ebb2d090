// Umbrella header of the attnsvm maths library (attnsvm::core): data, model and gradient, training,
// max-margin solvers with certificates, token-selection analysis, real-image data, the vocabulary
// (wire names and field lists).
// The papers' drivers (scenarios, experiments; attnsvm::experiments) have their own headers:
// attnsvm/experiments/scenarios.hpp, attnsvm/experiment*.hpp.
#pragma once
#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/base/types.hpp"
#include "attnsvm/data/dataset.hpp"
#include "attnsvm/data/real_images.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/fields.hpp"
#include "attnsvm/vocab/names.hpp"
