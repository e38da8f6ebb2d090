// The mirror-descent paper's synthetic experiments as its authors ran them (SPEC section 5.2):
// md-convergence (normalized l_p MD with the dual norm against every l_q Att-SVM) and joint-wv
// (joint l_p training of W and the head v). Plain numbers out (SeedResult columns, see
// experiment.hpp); the CLI and the lab aggregate and format them.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/scenarios.hpp"

namespace attnsvm {

// The q of the l_q Att-SVMs every md-convergence run is compared with, and the training ps of
// both experiments: {1.75, 2, 3}.
const std::vector<double>& mdExponents();
// The paper's iteration count for a training p: 1500 (p = 1.75), 2000 (p = 2), 20000 (p = 3),
// 2000 for any other p.
int mdIterations(double p);
// Column-name form of an exponent: "1.75", "2", "3" (a column's scope is "p1.75", "q3", ...).
std::string exponentName(double p);

// md-convergence, one seed, training p (0: 1.75). Series (over the snapshots, every
// iters/200 by default) per q of mdExponents() (and p itself if it is not one of them):
// "q<q>/div" = D_p(W^mm_q / ||W^mm_q||_p, W(k) / ||W(k)||_p) in the TRAINING p, and "q<q>/corr"
// (e.g. "q1.75/div"); "softmax" (mean selected probability). Values: the finals of those,
// "sparsityW", "q<q>/sparsitySvm", "loss", "global"; labels "verdict", "stopReason"; selection
// "W"; matrices "W", "q<q>/Wmm" (empty where the SVM is infeasible or unsolved).
SeedResult mdConvergenceSeed(std::uint64_t seed, const SeedOptions& options);
// Seeds first .. first + count - 1 of md-convergence at one training p, their runs trained together
// (runTrainingBatched): each as mdConvergenceSeed gives it, up to floating-point reassociation.
std::vector<SeedResult> mdConvergenceSeeds(std::uint64_t first, int count,
                                           const SeedOptions& options);

// joint-wv: one run per p of mdExponents() (the data are fixed; the seed is not used).
struct JointWvRun {
  double p = 2.0;
  Scenario sc;
  RunRecord rec;                // with the head v at each snapshot
  std::optional<Mat> wmm, vmm;  // l_p Att-SVM and l_p head SVM of the final selection
  Vec softmax;                  // selected token's softmax probability per sequence at the end
  Vec logistic;                 // 1 / (1 + exp(-Y_i f_i)) per sequence at the end
};
JointWvRun jointWvRun(double p, int iters, int every);
// Series per run "p<p>/" + corrW, divW (vs W^mm_p), corrV, divV (vs v^mm_p, divergence in p),
// meanSoftmax, meanLogistic, and the token-plane paths "p<p>/Wz[i][a]" = (W(k) z_i)_a and
// "p<p>/v[a]"; values the finals, "p<p>/softmax[i]", "p<p>/logistic[i]", the SVMs' W^mm z_i
// "p<p>/Wmmz[i][a]" and v^mm "p<p>/vmm[a]", the tokens "X[i][t][a]"; label "p<p>/stopReason";
// selections "p<p>" (e.g. "p1.75/divW", "p2/Wz[0][1]").
SeedResult jointWvSeed(std::uint64_t seed, int iters, int every);

}  // namespace attnsvm
