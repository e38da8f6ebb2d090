// "A hierarchy of max-margin token selectors" (SPEC 5.3 "Two layers", beyond the papers): the
// two-layer model (attnsvm/model/two_layer.hpp) trained by NGD, each layer measured against the
// Att-SVM of its own selection given the other layer's current outputs. No theorem covers this:
// the experiment reports where the picture holds and where it fails. Plain numbers out
// (SeedResult columns); the CLI and the lab aggregate and format them.
#pragma once
#include <cstdint>

#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/model/two_layer.hpp"

namespace attnsvm {

// Sphere defaults (as seq2seq-convergence: layer 1's SAtt-SVM has n T (T - 1) = 80 constraints on
// d^2 = 100 unknowns), 2000 NGD steps of eta = 0.1, snapshots every iters / 40.
struct HierarchySizes {
  int n = 4, T = 5, d = 10;
};
inline constexpr int kHierarchyIters = 2000;
inline constexpr int kHierarchySnapshots = 40;
// "The picture holds" at a snapshot: both layers' certified SVMs (layer 2's, and layer 1's over
// the attended units) within corr 0.99 of W2 and W1.
inline constexpr double kHierarchyCorr = 0.99;

// How a run is measured at every snapshot.
struct HierarchyPlan {
  int iters = kHierarchyIters, every = kHierarchyIters / kHierarchySnapshots;
  double lr = 0.1;
  // Layer 1's SAtt-SVM over all n T units at every snapshot (else at the last one only: on images
  // it has n T (T - 1) constraints).
  bool allUnitsEverySnapshot = true;
};

// One run from `init` on `data` (X, Y, the head v; v is not trained). Series (per snapshot):
// "loss", "softmax1", "residual1" (mean over layer 1's units of the selected probability and of
// 1 - it), "softmax2", "residual2" (layer 2), "softmax2Set" (layer 2's attention on its selected
// set O_i = {t : alpha_it = alpha_{i,beta_i}}, the rows of H_i that copy the token its selected row
// copies), "corrW2" (W2 against the Frobenius SVM of that set on the current H_i with query h_i0:
// (h_{i,beta_i} - h_it)^T W2 h_i0 >= 1 for t outside O_i), "corrW1All" (W1 against the seq2seq
// SAtt-SVM of layer 1's selection over all units), "corrW1Attended" (over the units (i, k), k in
// O_i, that layer 2 attends to), "holds" (1 when corrW2 and corrW1Attended are both >=
// kHierarchyCorr with certified SVMs), "normW1", "normW2"; NaN where an SVM is infeasible or not
// certified. Values: the finals of these, "certifiedW2", "certifiedW1All", "certifiedW1Attended" (1
// when the solver returned a certified optimum: gap <= 1e-6, violation <= 1e-8), "layer2Optimal"
// (share of sequences whose layer-2 selection maximizes Y_i v^T h_it), "layer1Optimal" (share of
// units whose layer-1 selection maximizes Y_i v^T x_it), "layer1AttendedOptimal" (the same over the
// attended units: the token the model finally reads is the sequence's best), "accuracy" (sign f_i =
// Y_i), "stopIteration"; labels "verdict2" (analyzeSelection of layer 2 on the final H),
// "statusW2", "statusW2OneToken" (the one-token Att-SVM of layer 2 at the end: infeasible when O_i
// has two rows that layer 1 made equal), "statusW1All", "statusW1Attended", "stopReason";
// selections "layer1" (n T), "layer2" (n).
SeedResult hierarchyRun(const Dataset& data, const TwoLayerParams& init, const HierarchyPlan& plan);

// The start of seed `seed`: W1, W2 with i.i.d. N(0, scale^2) entries from the seed's own stream,
// v the data's.
TwoLayerParams hierarchyInit(const Dataset& data, std::uint64_t seed, double scale = 0.1);

// The sphere experiment's seed (runExperimentSeed "hierarchy"): sphereDataset(n, T, d, seed) (the
// options' n, T, d override HierarchySizes), hierarchyInit(seed), hierarchyRun.
SeedResult hierarchySeed(std::uint64_t seed, const SeedOptions& options);

// The Fashion-MNIST task of the experiment: the first n/2 images of each class of `train` (file
// order, binarySubset seed 0), patch tokens (T = 49, d = 18), and a head v fitted first alone on
// the mean-pooled tokens (the model at W1 = W2 = 0: NGD on the logistic loss, eta 0.1,
// headSteps steps from v = 0), then frozen.
Dataset hierarchyImageData(const ImageSet& train, int classA, int classB, int n,
                           int headSteps = 1000);

}  // namespace attnsvm
