// Consumer of the installed package: builds a small cross-attention problem, solves its Frobenius
// Att-SVM, checks the certificate, and trains W by normalized GD toward it. Exit 0 only when the
// solve is certified and training turns W toward W^mm (corr > 0.99).
#include <attnsvm/attnsvm.hpp>
#include <cstdio>

int main() {
  using namespace attnsvm;
  Dataset data;
  data.n = 2;
  data.T = 3;
  data.d = 2;
  data.X.resize(6, 2);
  data.X << 1, 0, 0, 1, -1, -0.5, 0.5, 0.5, -1, 0.2, 0.3, -1;
  data.Z.resize(2, 2);
  data.Z << 1, 0, 0, 1;
  data.Y.resize(2);
  data.Y << 1, -1;
  data.v.resize(2);
  data.v << 1, 0.5;
  const std::vector<int> selection = optimalTokens(data).opt;
  SolverSettings solver;
  const MarginSolution svm =
      solveMargin(attentionSvmProblem(data, AttentionKind::Cross, selection), solver);
  std::printf("status %s objective %.12g gap %.3g violation %.3g\n", toString(svm.status),
              svm.objective, svm.gap, svm.maxViolation);
  if (svm.status != SolveStatus::Optimal || svm.gap > 1e-8 || svm.maxViolation > 1e-9) return 1;

  ModelSpec spec;
  Model model(data, spec);
  TrainSettings train;
  train.optimizer = parseWireName<Optimizer>("ngd", "optimizer");
  Trainer trainer(model, train, initialParams(model, InitSettings{}));
  trainer.step(2000);
  const double corr = correlation(trainer.weights(), svm.W);
  std::printf("after 2000 normalized-GD steps: corr(W, W^mm) = %.6f\n", corr);
  return corr > 0.99 ? 0 : 1;
}
