// Sequence-to-sequence and causal self-attention over seeds (SPEC 5.3): does normalized GD on W
// and on (K, Q) converge in direction to the SAtt-SVM (Frobenius for W, nuclear for (K, Q)) of the
// per-(sequence, query) selection it reaches, and is that selection optimal or locally optimal by
// the SAtt-SVM's definition (SPEC section 4, one unit per (sequence, query))? Plain numbers out
// (SeedResult columns, experiment.hpp); the CLI and the lab aggregate and format them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "attnsvm/experiments/experiment.hpp"

namespace attnsvm {

// The default sizes: n = 4 sequences, T = 5 tokens, d = 10. The seq2seq SAtt-SVM has n T (T - 1)
// = 80 constraints on d^2 = 100 unknowns (causal: n T (T - 1) / 2 = 40): GD ends at separable
// selections, and both outcomes of the theory occur (globally optimal for 7% of the seq2seq W runs
// and about half of the causal ones, locally optimal for most others). At the local-convergence
// sizes (n = 6, T = 8: 336 constraints) GD still ends at separable selections (10 of 10 seeds)
// but none of the 40 runs reached the globally optimal one, so only half the picture shows.
struct Seq2seqSizes {
  int n = 4, T = 5, d = 10;
};
inline constexpr int kSeq2seqIters = 2000;

// The four runs of a seed, in column order: scope "<attention>/<param>" (columnName), attention
// "seq2seq" or "causal", param "W" or "KQ".
const std::vector<std::string>& seq2seqScopes();

// One seed: sphere data (sphereDataset(n, T, d, seed); the options' n, T, d override the
// defaults), labels Y_i shared by every query of sequence i (so gamma_ikt = Y_i v^T x_it), logistic
// loss, normalized GD eta = 0.1 from W = 0 and from the scenario's small random (K, Q) (N(0, 0.1^2)
// entries). Per scope: series "<scope>/softmax" (mean over the units with two or more tokens of the
// selected softmax probability; causal query 0 attends to one token and is left out),
// "<scope>/corrFro", "<scope>/corrNuclear" (corr of W(k), or K Q^T, with the SAtt-SVM of the
// run's final selection in that norm; NaN where it is infeasible or unsolved). Values: the finals
// of those ("softmaxSelected", "corrFro", "corrNuclear"), "corrOwn" (Frobenius for W, nuclear for
// (K, Q)), "minSoftmax", "loss", "shareOptimal" (units whose selected token is a best-scoring one
// among the tokens it attends to), "shareLocal" (units none of whose support tokens scores at
// least as high as the selected one; NaN when the SVM is infeasible), "feasible", "global" and
// "local" (the verdict, 0/1), "gapFro", "gapNuclear" (the certificates' relative gaps),
// "violationFro", "rankW" (singular values > 1e-7 of the largest, of the final normalized
// weights). Labels "<scope>/verdict", "<scope>/stopReason"; selections "<scope>" (one token per
// unit, i-major).
SeedResult seq2seqConvergenceSeed(std::uint64_t seed, const SeedOptions& options);

}  // namespace attnsvm
