// K training runs of one shape advanced together (issue 18): the seeds of an experiment, the starts
// of the basin map. The same iteration as Trainer (SPEC section 2; the scaled log-domain gradient
// of docs/NUMERICS.md), laid out as structure of arrays: every quantity of the K runs is stored
// with the run index innermost, so the inner loops run over runs with unit stride and vectorize,
// and the small per-run matrices (d = 10) no longer leave the SIMD lanes idle. Results equal the
// single-run Trainer's up to floating-point reassociation.
//
// Covered: parameterizations W, (K,Q) (with the balance term) and prompt; every attention kind and
// loss; the linear head (fixed); optimizers GD, NGD, MD, NMD (dual-norm step, SPEC section 2),
// NMDFro, Adam (per-run moments in the same layout, Trainer's step operation for operation). Not
// covered (batchedUnsupported() says why; callers fall back to Trainer): the relu head, joint
// training of the head (with any head optimizer, Adam included).
#pragma once
#include <string>
#include <vector>

#include "attnsvm/model/model.hpp"
#include "attnsvm/train/train.hpp"

namespace attnsvm {

namespace detail {
struct UnitLanes;  // per-lane state of one softmax unit (train_batched.cpp)
}

// Empty when the batched trainer runs this spec and these settings, else the reason it does not.
std::string batchedUnsupported(const ModelSpec& spec, const TrainSettings& settings);

class BatchedTrainer {
 public:
  // models: K >= 1 models of one shape (n, T, d, attention, parameterization, loss, m); each has
  // its own data (and, for prompts, its own Wk). inits: one start per model. Throws InputError on a
  // shape mismatch, an unsupported setting, or what Trainer would reject.
  BatchedTrainer(std::vector<Model> models, TrainSettings settings,
                 const std::vector<Params>& inits);

  int runs() const { return K_; }
  // Advances every run that has not stopped by up to k iterations (Trainer::step for each).
  void step(int k);
  int iteration(int r) const { return iteration_[r]; }
  bool stopped(int r) const { return !stopReason_[r].empty(); }
  bool allStopped() const;
  const std::string& stopReason(int r) const { return stopReason_[r]; }

  const Model& model(int r) const { return models_[r]; }
  Params params(int r) const;
  Mat weights(int r) const;  // effective weights (d x d, or d x 1 for prompts)
  // The same into out (sized as weights(r)): a snapshot without an allocation.
  void weightsInto(int r, MatRef out) const;
  // At the current parameters (by-products of the last gradient): loss and the selected token's
  // softmax probability per unit.
  double loss(int r) const { return loss_[r]; }
  void selectedProbability(int r, VecRef out) const;

 private:
  void evaluate();         // gradient at the current parameters of every run (and by-products)
  void checkEvaluation();  // Trainer::evaluate's stop reasons for the runs still going
  // One block of kLanes runs (lanes kb .. kb + kLanes - 1) at a time:
  void queryBlock(int u, int kb);  // the query of unit u into queries_ (stride kLanes)
  void unitBlock(int u, int kb);   // softmax unit u: direction, log-magnitude, by-products
  void lossAndScale(int u, int kb, bool several, const detail::UnitLanes& s);
  void assemble();               // rescaled directions -> gradient blocks, balance term:
  void rescaleUnits();           //   dir_u *= sign exp(logQ_u - max logQ), logScale_
  void gradientBlocks();         //   sum_u dir_u z_u^T -> gW_ (gK_, gQ_), or Wk sum_u dir_u -> gP_
  void addBalance();             //   (K,Q) with balance > 0
  void update();                 // one step of every active run (stop reasons as Trainer's):
  void stepParams(double* bad);  // candidates next* (bad: not finite)
  void takeOrStop(const double* bad);  // active_ or a stop reason per run
  void commitAndCheckNorm();           // commit, ||W||_F against maxNorm
  void stepBlock(const double* x, const double* dir, int size, double* next, double* bad);
  void adamCoefficients();  // Adam: per-run scale factors and bias corrections of this step
  void adamBlock(const double* x, const double* dir, int size, double* m, double* sq, double* next,
                 double* bad);

  std::vector<Model> models_;
  TrainSettings s_;
  static constexpr int kLanes = 8;  // runs per register block; lanes are padded to a multiple
  void padLanes(std::vector<double>& v) const;
  int K_ = 0, KP_ = 0, n_ = 0, T_ = 0, d_ = 0, m_ = 0, units_ = 0;
  Parameterization param_ = Parameterization::W;
  LossKind lossKind_ = LossKind::Logistic;
  double logUnits_ = 0.0;
  std::vector<int> unitSeq_, unitCount_,
      unitQueryToken_;  // unitQueryToken_: unused (cross) or token index

  // Data, run index innermost: element e of run k at [e * KP_ + k].
  std::vector<double> tokens_;   // ((i T + t) d + j)
  std::vector<double> headDot_;  // (i T + t): v . x_it (the fixed linear head)
  std::vector<double> queryIn_;  // (u d + j): the query input z_u (W, (K,Q))
  std::vector<double> label_;    // u
  std::vector<double> keys_;     // prompt: Wk, column-major (a + b d)

  // Parameters and their candidate step (column-major per run: W d x d; K, Q d x m; p d).
  std::vector<double> W_, K_m_, Q_, p_, nextW_, nextK_, nextQ_, nextP_;
  // Gradient directions (scaled form, as Gradient) and per-run scalars.
  std::vector<double> gW_, gK_, gQ_, gP_;
  std::vector<double> logScale_, loss_;
  // Adam: first and second moments of every parameter entry (the blocks in order: W; K then Q; p),
  // zero at the start; adamCoef_ holds 4 per-run coefficients of the current step.
  std::vector<double> adamM_, adamS_, adamCoef_;
  std::vector<double> prob_;  // u: selected probability

  // Scratch (sized once; the step does not allocate).
  std::vector<double> queries_, inner_, score_, w_, xa_, ghat_, dirs_, logQ_, sign_, tmp_, tmp2_;
  std::vector<double> coef_, normScratch_;
  std::vector<Params> inits_;  // the starts (v and the unused blocks of params())
  mutable Mat snapK_, snapQ_;  // weightsInto's (K,Q) factors of one run (sized once)
  std::vector<unsigned char> active_, moved_, movedFirst_;
  std::vector<int> alpha_;
  std::vector<int> iteration_;
  std::vector<std::string> stopReason_;
};

}  // namespace attnsvm
