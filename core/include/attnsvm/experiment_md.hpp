// The mirror-descent paper's synthetic experiments as its authors ran them (SPEC section 5.2):
// md-convergence (normalized l_p MD with the dual norm against every l_q Att-SVM) and joint-wv
// (joint l_p training of W and the head v). Plain numbers out (SeedResult columns, see
// experiment.hpp); the CLI and the lab aggregate and format them.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attnsvm/experiment.hpp"
#include "attnsvm/scenarios.hpp"

namespace attnsvm {

// The q of the l_q Att-SVMs every md-convergence run is compared with, and the training ps of
// both experiments: {1.75, 2, 3}.
const std::vector<double>& mdExponents();
// The paper's iteration count for a training p: 1500 (p = 1.75), 2000 (p = 2), 20000 (p = 3),
// 2000 for any other p.
int mdIterations(double p);
// Column-name form of an exponent: "1.75", "2", "3".
std::string exponentName(double p);

// md-convergence, one seed, training p (0: 1.75). Series (over the snapshots, every
// iters/200 by default) per q of mdExponents() (and p itself if it is not one of them):
// "div_q<q>" = D_p(W^mm_q / ||W^mm_q||_p, W(k) / ||W(k)||_p) in the TRAINING p, and "corr_q<q>";
// "softmax" (mean selected probability). Values: the finals of those, "sparsity_W",
// "sparsity_svm_q<q>", "loss", "global"; label "verdict", "stop_reason"; selection "W";
// matrices "W", "Wmm_q<q>" (empty where the SVM is infeasible or unsolved).
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
// Series per run "p<p>_" + corr_W, div_W (vs W^mm_p), corr_v, div_v (vs v^mm_p, divergence in p),
// mean_softmax, mean_logistic, and the token-plane paths "p<p>_z<i>_<a>" = (W(k) z_i)_a and
// "p<p>_v_<a>"; values the finals, "p<p>_softmax_<i>", "p<p>_logistic_<i>", the SVMs' W^mm z_i
// "p<p>_wmm_z<i>_<a>" and v^mm "p<p>_vmm_<a>", the tokens "x_<i>_<t>_<a>"; selections "p<p>".
SeedResult jointWvSeed(std::uint64_t seed, int iters, int every);

}  // namespace attnsvm
