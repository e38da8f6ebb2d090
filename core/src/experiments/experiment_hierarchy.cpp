// The hierarchy experiment (experiment_hierarchy.hpp): NGD on the two-layer model with, at every
// snapshot, each layer's weights against the max-margin SVM of its own selection given the other
// layer's current outputs. Layer 2's problem is an ordinary Att-SVM on the tokens H_i (query
// h_i0); layer 1's is the seq2seq SAtt-SVM of the core (attentionSvmProblem, SeqToSeq), over all
// units and restricted to the units layer 2 attends to.
#include "attnsvm/experiments/experiment_hierarchy.hpp"

#include <cmath>
#include <optional>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/train/two_layer_train.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm {

namespace {

using experiment_detail::kNaN;
constexpr std::uint64_t kHierarchyStream = 0x082efa98ec4e6c89ULL;  // W1, W2 of a seed
constexpr double kCertGap = 1e-6, kCertViolation = 1e-8;

// A solve reduced to what the experiment keeps: the solution if certified, and the status.
struct Certified {
  std::optional<Mat> W;
  std::string status = "not_solved";
  double gap = kNaN;
};

Certified solveCertified(const MarginProblem& pb) {
  Certified c;
  if (pb.constraints() == 0) {
    c.status = "no_constraints";
    return c;
  }
  SolverSettings st;
  MarginSolution sol;
  try {
    sol = solveMargin(pb, st);
  } catch (const NumericalError& e) {
    c.status = "numerical_error";
    return c;
  }
  c.status = toString(sol.status);
  c.gap = sol.gap;
  if (sol.status == SolveStatus::Optimal && sol.gap <= kCertGap &&
      sol.maxViolation <= kCertViolation)
    c.W = sol.W;
  else if (sol.status == SolveStatus::Optimal)
    c.status = "uncertified";
  return c;
}

// Layer 2's tokens as a cross-attention dataset: X = H (row i*T + k = h_ik), z_i = h_i0.
Dataset layer2Data(const Dataset& data, const Mat& H) {
  Dataset dh;
  dh.n = data.n;
  dh.T = data.T;
  dh.d = data.d;
  dh.X = H;
  dh.Z.resize(data.n, data.d);
  for (int i = 0; i < data.n; ++i) dh.Z.row(i) = H.row(static_cast<Index>(i) * data.T);
  dh.Y = data.Y;
  dh.v = data.v;
  return dh;
}

// The constraints of `all` that `keep` accepts (by their labels).
template <class Keep>
MarginProblem keepConstraints(const MarginProblem& all, Keep keep) {
  MarginProblem pb;
  pb.rows = all.rows;
  pb.cols = all.cols;
  std::vector<Index> rows;
  for (int j = 0; j < all.constraints(); ++j)
    if (keep(all.label[static_cast<std::size_t>(j)])) rows.push_back(j);
  const Index m = static_cast<Index>(rows.size());
  pb.U.resize(m, all.U.cols());
  pb.Wq.resize(m, all.Wq.cols());
  pb.b.resize(m);
  for (Index r = 0; r < m; ++r) {
    pb.U.row(r) = all.U.row(rows[r]);
    pb.Wq.row(r) = all.Wq.row(rows[r]);
    pb.b[r] = all.b[rows[r]];
    pb.label.push_back(all.label[static_cast<std::size_t>(rows[r])]);
  }
  pb.equality.assign(static_cast<std::size_t>(m), false);
  return pb;
}

// Layer 1's SAtt-SVM over the units layer 2 attends to: the units (i, k) of its selected set O_i
// (below), which share layer 2's attention, so layer 1's gradient flows through them.
MarginProblem attendedUnits(const MarginProblem& all, const std::vector<int>& alpha,
                            const std::vector<int>& beta, int T) {
  return keepConstraints(all, [&](const ConstraintLabel& l) {
    const int i = l.sequence;
    return alpha[static_cast<std::size_t>(i * T + l.query)] ==
           alpha[static_cast<std::size_t>(i * T + beta[static_cast<std::size_t>(i)])];
  });
}

// Layer 2's SVM of its selected *set*: once layer 1 is sharp, the rows h_ik of the queries k that
// copy the same token are (nearly) equal, so no W2 separates one of them from the others (the
// one-token Att-SVM is infeasible) and layer 2 spreads its attention over them at no cost. Its
// selection is then the set O_i = {t : alpha_it = alpha_{i,beta_i}} (the rows copying the token
// beta_i's row copies), and its SVM separates O_i's representative beta_i from the rows outside O_i
// (SPEC 5.3; the generalized SVM's directional part without the equalities inside O_i).
MarginProblem selectedSetSvm(const MarginProblem& all, const std::vector<int>& alpha,
                             const std::vector<int>& beta, int T) {
  return keepConstraints(all, [&](const ConstraintLabel& l) {
    const int i = l.sequence;
    return alpha[static_cast<std::size_t>(i * T + l.token)] !=
           alpha[static_cast<std::size_t>(i * T + beta[static_cast<std::size_t>(i)])];
  });
}

double corrOr(const std::optional<Mat>& ref, const Mat& W) {
  return ref ? correlation(W, *ref) : kNaN;
}

// Share of units whose selection is a best-scoring token (gamma = Y_i v^T x) among `tokens` rows.
double shareOptimal(const Mat& tokens, int T, const Vec& Y, const Vec& v,
                    const std::vector<int>& sel, const std::vector<int>& unitSequence,
                    const std::vector<int>& unitRowStart) {
  int good = 0;
  for (std::size_t u = 0; u < sel.size(); ++u) {
    const int i = unitSequence[u];
    const Vec g = Y[i] * (tokens.middleRows(unitRowStart[u], T) * v);
    const double top = g.maxCoeff();
    good += g[sel[u]] >= top - 1e-12 * std::max(1.0, std::abs(top)) ? 1 : 0;
  }
  return sel.empty() ? kNaN : static_cast<double>(good) / sel.size();
}

}  // namespace

TwoLayerParams hierarchyInit(const Dataset& data, std::uint64_t seed, double scale) {
  TwoLayerParams p;
  Rng rng(seed ^ kHierarchyStream);
  p.W1 = scale * rng.normalMatrix(data.d, data.d);
  p.W2 = scale * rng.normalMatrix(data.d, data.d);
  p.v = data.v;
  return p;
}

SeedResult hierarchyRun(const Dataset& data, const TwoLayerParams& init,
                        const HierarchyPlan& plan) {
  const TwoLayerModel model(data);
  const int n = data.n, T = data.T;
  TwoLayerParams params = init;
  TwoLayerGradient grad;
  TwoLayerTrainSettings ts;
  ts.lr = plan.lr;
  const int every = std::max(1, plan.every);

  SeedResult r;
  r.n = n;
  r.T = T;
  r.d = data.d;
  r.iters = plan.iters;
  r.every = every;
  const char* names[] = {"loss",           "softmax1",    "residual1", "softmax2",
                         "residual2",      "softmax2Set", "corrW2",    "corrW1All",
                         "corrW1Attended", "holds",       "normW1",    "normW2"};
  constexpr int kSeries = 12;
  std::vector<std::vector<double>> series(kSeries);
  // Row starts and sequences of the units, for the optimality shares.
  std::vector<int> seq1, start1, seq2, start2;
  for (int i = 0; i < n; ++i) {
    seq2.push_back(i);
    start2.push_back(i * T);
    for (int k = 0; k < T; ++k) {
      seq1.push_back(i);
      start1.push_back(i * T);
    }
  }
  Certified c2, c2One, c1All, c1Att;
  TwoLayerForward fw;
  auto snapshot = [&](int iteration, bool last) {
    fw = model.forward(params);
    const MarginProblem layer2 =
        attentionSvmProblem(layer2Data(data, fw.H), AttentionKind::Cross, fw.selected2);
    c2 = solveCertified(selectedSetSvm(layer2, fw.selected1, fw.selected2, T));
    if (last) c2One = solveCertified(layer2);
    // Layer 2's attention on its selected set O_i.
    double setMass = 0.0;
    for (int i = 0; i < n; ++i) {
      const int copied = fw.selected1[static_cast<std::size_t>(i * T + fw.selected2[i])];
      for (int t = 0; t < T; ++t)
        if (fw.selected1[static_cast<std::size_t>(i * T + t)] == copied)
          setMass += fw.softmax2(i, t);
    }
    const MarginProblem all = attentionSvmProblem(data, AttentionKind::SeqToSeq, fw.selected1);
    c1Att = solveCertified(attendedUnits(all, fw.selected1, fw.selected2, T));
    c1All = plan.allUnitsEverySnapshot || last ? solveCertified(all) : Certified{};
    const double cW2 = corrOr(c2.W, params.W2), cAtt = corrOr(c1Att.W, params.W1);
    const double values[kSeries] = {fw.loss,
                                    1.0 - fw.residual1.mean(),
                                    fw.residual1.mean(),
                                    1.0 - fw.residual2.mean(),
                                    fw.residual2.mean(),
                                    setMass / n,
                                    cW2,
                                    corrOr(c1All.W, params.W1),
                                    cAtt,
                                    cW2 >= kHierarchyCorr && cAtt >= kHierarchyCorr ? 1.0 : 0.0,
                                    params.W1.norm(),
                                    params.W2.norm()};
    r.iteration.push_back(iteration);
    for (int s = 0; s < kSeries; ++s) series[s].push_back(values[s]);
  };

  int it = 0;
  std::string stop;
  snapshot(0, plan.iters == 0);
  while (it < plan.iters) {
    stop = twoLayerNgdStep(model, ts, params, grad);
    if (!stop.empty()) break;
    ++it;
    if (it % every == 0 || it == plan.iters) snapshot(it, it == plan.iters);
  }
  if (!stop.empty() && r.iteration.back() != it) snapshot(it, true);
  if (!stop.empty() && !plan.allUnitsEverySnapshot && !c1All.W && c1All.status == "not_solved")
    c1All = solveCertified(attentionSvmProblem(data, AttentionKind::SeqToSeq, fw.selected1));

  for (int s = 0; s < kSeries; ++s) {
    r.addValue(names[s], series[s].back());
    r.addSeries(names[s], std::move(series[s]));
  }
  r.addValue("certifiedW2", c2.W ? 1.0 : 0.0);
  r.addValue("certifiedW1All", c1All.W ? 1.0 : 0.0);
  r.addValue("certifiedW1Attended", c1Att.W ? 1.0 : 0.0);
  r.addValue("layer2Optimal", shareOptimal(fw.H, T, data.Y, data.v, fw.selected2, seq2, start2));
  r.addValue("layer1Optimal", shareOptimal(data.X, T, data.Y, data.v, fw.selected1, seq1, start1));
  std::vector<int> attendedSel, attendedSeq, attendedStart;
  for (int i = 0; i < n; ++i) {
    attendedSel.push_back(fw.selected1[static_cast<std::size_t>(i * T + fw.selected2[i])]);
    attendedSeq.push_back(i);
    attendedStart.push_back(i * T);
  }
  r.addValue("layer1AttendedOptimal",
             shareOptimal(data.X, T, data.Y, data.v, attendedSel, attendedSeq, attendedStart));
  int correct = 0;
  for (int i = 0; i < n; ++i) correct += fw.output[i] * data.Y[i] > 0 ? 1 : 0;
  r.addValue("accuracy", static_cast<double>(correct) / n);
  r.addValue("stopIteration", it);
  std::string verdict2 = "not_analyzed";
  try {
    verdict2 = toString(
        analyzeSelection(layer2Data(data, fw.H), AttentionKind::Cross, fw.selected2).verdict);
  } catch (const InputError&) {
    verdict2 = "degenerate_tokens";  // e.g. two rows of H_i equal: no constraint can separate
  } catch (const NumericalError&) {
    verdict2 = "numerical_error";
  }
  r.addLabel("verdict2", verdict2);
  r.addLabel("statusW2", c2.status);
  r.addLabel("statusW2OneToken", c2One.status);
  r.addLabel("statusW1All", c1All.status);
  r.addLabel("statusW1Attended", c1Att.status);
  r.addLabel("stopReason", stop);
  r.selectionNames = {"layer1", "layer2"};
  r.selections = {fw.selected1, fw.selected2};
  return r;
}

SeedResult hierarchySeed(std::uint64_t seed, const SeedOptions& o) {
  const HierarchySizes def;
  const int n = o.n == -1 ? def.n : o.n, T = o.T == -1 ? def.T : o.T, d = o.d == -1 ? def.d : o.d;
  if (n < 1 || T < 2 || d < 1)
    throw InputError(
        "hierarchy: n >= 1, T >= 2 and d >= 1 are needed (got n = " + std::to_string(n) +
        ", T = " + std::to_string(T) + ", d = " + std::to_string(d) + ")");
  const Dataset data = sphereDataset(n, T, d, seed);
  HierarchyPlan plan;
  plan.iters = o.iters == -1 ? kHierarchyIters : o.iters;
  plan.every = o.every == -1 ? std::max(1, plan.iters / kHierarchySnapshots) : o.every;
  return hierarchyRun(data, hierarchyInit(data, seed), plan);
}

Dataset hierarchyImageData(const ImageSet& train, int classA, int classB, int n, int headSteps) {
  Dataset data = patchDataset(binarySubset(train, classA, classB, n, 0), classA, classB);
  // The head alone on the mean-pooled tokens (the two-layer model at W1 = W2 = 0 averages every
  // sequence's tokens): normalized GD on the logistic loss from v = 0.
  Mat mean(data.n, data.d);
  for (int i = 0; i < data.n; ++i) mean.row(i) = data.tokens(i).colwise().mean();
  Vec v = Vec::Zero(data.d), g(data.d);
  for (int s = 0; s < headSteps; ++s) {
    g.setZero();
    for (int i = 0; i < data.n; ++i) {
      const double y = data.Y[i], u = y * mean.row(i).dot(v);
      g -= (y / (1.0 + pmath::exp(u))) * mean.row(i).transpose();
    }
    const double gn = g.norm();
    if (!(gn > 0.0)) break;
    v -= (0.1 / gn) * g;
  }
  data.v = v;
  data.Z.resize(0, 0);
  return data;
}

}  // namespace attnsvm
