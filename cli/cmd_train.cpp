// attnsvm train --param w|kq --optimizer gd|ngd|md [--p P] --lr ETA --iters K [--init zero|random]
// [--seed S] FILE: trains one attention layer and compares the final weights with the SVMs of
// the selection it converged to.
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "analysis_util.hpp"
#include "attnsvm/base/errors.hpp"
#include "attnsvm/train/train.hpp"
#include "commands.hpp"
#include "json_io.hpp"
#include "options.hpp"
#include "problem_source.hpp"
#include "progress.hpp"

namespace attnsvm::cli {

namespace {
struct TrainOptions {
  std::string file;
  std::string scenario;
  std::string param = "w";
  std::string optimizer = "ngd";
  std::string init;
  std::string loss = "logistic";
  std::string head = "linear";
  std::string attention;
  double p = 2.0;
  double lr = 0.1;
  double scale = 0.1;
  int iters = 2000;
  std::uint64_t seed = 0;
  std::string trace;
  int traceEvery = 10;
  bool pretty = false;
  // scenario options
  int n = -1, T = -1, d = -1, start = 0, variant = 0;
  double C = 1.0;
  bool localCase = false;
};

constexpr int kMaxTrainIters = 100000000;

std::string csvNumber(double x) {
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}

// Data, input: the file or the scenario and its data.
void addInputOptions(CLI::App* sub, TrainOptions& o) {
  sub->add_option("FILE", o.file,
                  "input JSON ({X, Z|query, Y, v, V?}); - for stdin; omit with --scenario");
  sub->add_option(
      "--scenario", o.scenario,
      "take data, model and settings from a named scenario (see `attnsvm scenario --list`)");
  addScenarioOptions(sub, o);
}

// The model: parameterization, loss, head and attention kind.
void addModelOptions(CLI::App* sub, TrainOptions& o) {
  sub->add_option("--param", o.param,
                  "w (one matrix W) or kq (W = K Q^T); prompt with a prompt scenario")
      ->capture_default_str();
  sub->add_option("--loss", o.loss, "logistic, exp or correlation (l(u) = -u)")
      ->capture_default_str();
  sub->add_option("--head", o.head, "linear (v) or relu (v^T relu(V r); needs V in the file)")
      ->capture_default_str();
  sub->add_option("--attention", o.attention,
                  "cross, self, seq2seq or causal (default: from the file)");
}

// The optimizer, its steps and the initial point.
void addOptimizerOptions(CLI::App* sub, TrainOptions& o) {
  sub->add_option("--optimizer", o.optimizer,
                  "gd, ngd (normalized GD), md (l_p mirror descent), nmd (normalized MD, step "
                  "divided by the dual norm ||grad||_q + eps as in the mirror-descent paper), "
                  "nmd-fro (normalized MD, divided by ||grad||_F)")
      ->capture_default_str();
  sub->add_option("--p", o.p, "p of l_p mirror descent (p > 1)")->capture_default_str();
  sub->add_option("--lr", o.lr, "step size eta")->capture_default_str();
  sub->add_option("--iters", o.iters, "iterations")->capture_default_str();
  sub->add_option("--init", o.init, "zero or random (default: zero for w, random for kq)");
  sub->add_option("--scale", o.scale, "standard deviation of a random init")->capture_default_str();
  sub->add_option("--seed", o.seed, "seed of the random init (and of the scenario's data)")
      ->capture_default_str();
}

// Output: the CSV trace and the JSON's layout.
void addOutputOptions(CLI::App* sub, TrainOptions& o) {
  sub->add_option("--trace", o.trace,
                  "write a CSV trace (iteration, loss, norms, softmax, corr and Bregman divergence "
                  "D_p with the SVMs) to this file");
  sub->add_option("--trace-every", o.traceEvery, "trace every k-th iteration")
      ->capture_default_str();
  sub->add_flag("--pretty", o.pretty, "indent the JSON output");
}

void checkTrainOptions(const TrainOptions& o) {
  if (o.iters < 0 || o.iters > kMaxTrainIters)
    throw InputError("--iters = " + std::to_string(o.iters) + " is out of range 0.." +
                     std::to_string(kMaxTrainIters));
  if (!(o.lr > 0) || !std::isfinite(o.lr)) throw InputError("--lr must be a positive number");
  if (o.traceEvery < 1) throw InputError("--trace-every must be >= 1");
}

// What a run trains: data, model, settings and (when the scenario gives one) the initial point.
struct TrainSetup {
  Dataset data;
  ModelSpec spec;
  TrainSettings settings;
  Params init;
  bool haveInit = false;
};

// From a scenario; the options given on the command line override its choices (and --iters is
// set to the scenario's when not given).
TrainSetup setupFromScenario(TrainOptions& o, const CLI::App& sub) {
  Scenario s = std::move(*loadProblem("train", o.file, o.scenario, scenarioOptionsOf(o)).scenario);
  TrainSetup t;
  t.data = std::move(s.data);
  t.spec = std::move(s.model);
  t.settings = s.train;
  t.init = std::move(s.init);
  t.haveInit = true;
  if (sub.count("--iters") == 0) o.iters = s.iterations;
  if (sub.count("--param")) t.spec.param = parseTrainParam(o.param);
  if (sub.count("--loss")) t.spec.loss = parseLoss(o.loss);
  if (sub.count("--optimizer")) t.settings.optimizer = parseOptimizerOption(o.optimizer);
  if (sub.count("--lr")) t.settings.lr = o.lr;
  if (sub.count("--p")) {
    t.settings.p = o.p;
    // joint l_p training (joint-wv): the head follows the attention's p, as in the experiment
    if (t.settings.trainHead && isMirrorOptimizer(t.settings.headOptimizer)) t.settings.headP = o.p;
  }
  if (sub.count("--init")) t.haveInit = false;
  return t;
}

// From the input file and the options (no initial point: see initialPoint()).
TrainSetup setupFromFile(const TrainOptions& o) {
  LoadedProblem lp = loadProblem("train", o.file, "", ScenarioOptions{});
  const json& input = lp.input;
  ProblemInput& in = lp.file;
  TrainSetup t;
  t.data = std::move(in.data);
  t.spec.attention = in.kind;
  if (!o.attention.empty()) t.spec.attention = parseAttentionKind(o.attention);
  t.spec.param = parseTrainParam(o.param);
  t.spec.loss = parseLoss(o.loss);
  t.spec.head = parseHead(o.head);
  if (t.spec.head == HeadKind::ReluMLP) {
    if (!input.contains("V"))
      throw InputError("V is missing: --head relu needs V (d x d) in the file");
    t.spec.V = readMatrix(input["V"], "V", t.data.d, t.data.d);
  }
  t.settings.optimizer = parseOptimizerOption(o.optimizer);
  t.settings.lr = o.lr;
  t.settings.p = o.p;
  return t;
}

// --init zero or random (the default: zero for W, random for KQ) with --seed and --scale.
Params initialPoint(const Model& model, const TrainOptions& o) {
  InitSettings is;
  std::string kind = o.init;
  if (kind.empty()) kind = model.spec().param == Parameterization::KQ ? "random" : "zero";
  is.kind = parseWireName<InitKind>(kind, "--init");
  if (is.kind != InitKind::Zero && is.kind != InitKind::Random)
    throw InputError("--init " + kind + ": only zero or random can be given on the command line");
  is.seed = o.seed;
  is.scale = o.scale;
  return initialParams(model, is);
}

// One row of the trace: the iterate at that iteration.
struct Snap {
  int iteration;
  double loss;
  Mat W;
  double minProb, meanProb;
};

// Runs the trainer to --iters (or its stop) in chunks of --trace-every, with a snapshot at the
// start and after every chunk when tracing (none otherwise).
std::vector<Snap> trainTraced(Trainer& trainer, const TrainOptions& o) {
  std::vector<Snap> snaps;
  std::vector<int> sel(trainer.model().units());
  Vec prob(trainer.model().units());
  auto snapshot = [&]() {
    trainer.model().selection(trainer.params(), sel, prob);
    snaps.push_back({trainer.iteration(), trainer.model().loss(trainer.params()), trainer.weights(),
                     prob.minCoeff(), prob.mean()});
  };
  if (!o.trace.empty()) snapshot();
  // Chunks of at most kCancelChunk iterations so that a host's cancellation (progress.hpp: the
  // Python package's Ctrl-C) stops a long run within a fraction of a second; steps are the same.
  constexpr int kCancelChunk = 256;
  while (trainer.iteration() < o.iters && !trainer.stopped()) {
    if (cancelRequested()) throw Cancelled();
    const int k = o.trace.empty() ? std::min(kCancelChunk, o.iters - trainer.iteration())
                                  : std::min(o.traceEvery, o.iters - trainer.iteration());
    if (trainer.step(k) < k && trainer.stopped()) break;
    if (!o.trace.empty()) snapshot();
  }
  return snaps;
}

// The SVM directions of the selection the run converged to (absent when infeasible or not
// computed: no nuclear SVM for a prompt, no l_p SVM unless mirror descent).
struct SvmDirections {
  std::optional<Mat> fro, nuc, lp;
};

SvmDirections svmDirections(const Dataset& data, const ModelSpec& spec,
                            const std::vector<int>& selected, bool md, double lpP) {
  SvmDirections s;
  s.fro = svmDirection(data, spec, selected, NormKind::Frobenius);
  if (spec.param != Parameterization::Prompt)
    s.nuc = svmDirection(data, spec, selected, NormKind::Nuclear);
  if (md) s.lp = svmDirection(data, spec, selected, NormKind::Lp, lpP);
  return s;
}

// "corr" and "divergence" of the final W with the SVM directions: D_p(SVM direction, W
// direction) in the run's p (2 unless mirror descent), SPEC section 4.
void addSvmComparison(json& out, const Mat& W, const SvmDirections& svm, bool prompt, bool md,
                      double lpP) {
  auto corrOf = [&](const std::optional<Mat>& ref) {
    return ref ? json(correlation(W, *ref)) : json(nullptr);
  };
  auto div = [&](const std::optional<Mat>& ref) {
    return ref ? json(directionDivergence(*ref, W, lpP)) : json(nullptr);
  };
  json corr, divergence;
  corr["fro"] = corrOf(svm.fro);
  if (!prompt) corr["nuclear"] = corrOf(svm.nuc);
  if (md) corr["lp"] = corrOf(svm.lp);
  divergence["p"] = lpP;
  divergence["fro"] = div(svm.fro);
  if (svm.nuc) divergence["nuclear"] = div(svm.nuc);
  if (md) divergence["lp"] = div(svm.lp);
  out["corr"] = std::move(corr);
  out["divergence"] = std::move(divergence);
}

// The --trace CSV: one row per snapshot, correlations and divergences with the final SVMs.
std::string traceCsv(const std::vector<Snap>& snaps, const SvmDirections& svm, bool md,
                     double lpP) {
  std::ostringstream csv;
  // Column names as the JS trace's (normFro, normNuc) and the train JSON's (corr, divergence)
  // fields, composed with '/' (docs/NAMES.md).
  csv << "iteration,loss,normFro,normNuc,softmaxSelected/min,softmaxSelected/mean,corr/fro,"
         "corr/nuclear";
  if (md) csv << ",corr/lp";
  csv << ",divergence/fro,divergence/nuclear";  // D_p in the trace p (the MD p, else 2)
  if (md) csv << ",divergence/lp";
  csv << "\n";
  for (const Snap& s : snaps) {
    csv << s.iteration << "," << csvNumber(s.loss) << ","
        << csvNumber(matrixNorm(s.W, NormKind::Frobenius)) << ","
        << csvNumber(matrixNorm(s.W, NormKind::Nuclear)) << "," << csvNumber(s.minProb) << ","
        << csvNumber(s.meanProb) << "," << (svm.fro ? csvNumber(correlation(s.W, *svm.fro)) : "")
        << "," << (svm.nuc ? csvNumber(correlation(s.W, *svm.nuc)) : "");
    if (md) csv << "," << (svm.lp ? csvNumber(correlation(s.W, *svm.lp)) : "");
    csv << "," << (svm.fro ? csvNumber(directionDivergence(*svm.fro, s.W, lpP)) : "") << ","
        << (svm.nuc ? csvNumber(directionDivergence(*svm.nuc, s.W, lpP)) : "");
    if (md) csv << "," << (svm.lp ? csvNumber(directionDivergence(*svm.lp, s.W, lpP)) : "");
    csv << "\n";
  }
  return csv.str();
}

int runTrain(TrainOptions& o, const CLI::App& sub) {
  checkTrainOptions(o);
  TrainSetup setup = o.scenario.empty() ? setupFromFile(o) : setupFromScenario(o, sub);
  const Dataset& data = setup.data;
  const ModelSpec& spec = setup.spec;
  TrainSettings& settings = setup.settings;
  if (isMirrorOptimizer(settings.optimizer)) checkP(settings.p);
  settings.traceEvery = o.trace.empty() ? std::max(1, o.iters) : o.traceEvery;

  Model model(data, spec);
  const Params init = setup.haveInit ? std::move(setup.init) : initialPoint(model, o);
  const bool md = isMirrorOptimizer(settings.optimizer);
  const double lpP = md ? settings.p : 2.0;

  const auto t0 = std::chrono::steady_clock::now();
  Trainer trainer(model, settings, init);
  const std::vector<Snap> snaps = trainTraced(trainer, o);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const Forward fw = trainer.model().forward(trainer.params());
  const Mat W = trainer.weights();
  json out;
  out["selection"] = fw.selected;
  out["softmaxSelected"] = vectorJson(fw.selectedProbability);
  out["verdict"] = verdictName(data, spec, fw.selected);
  const SvmDirections svm = svmDirections(data, spec, fw.selected, md, lpP);
  addSvmComparison(out, W, svm, spec.param == Parameterization::Prompt, md, lpP);
  out["W"] = toJson(W);
  if (spec.param == Parameterization::KQ) {
    out["K"] = toJson(trainer.params().K);
    out["Q"] = toJson(trainer.params().Q);
  }
  if (settings.trainHead) out["v"] = vectorJson(trainer.params().v);
  out["loss"] = fw.loss;
  out["seconds"] = seconds;
  out["iterations"] = trainer.iteration();
  if (trainer.stopped()) out["stopReason"] = trainer.stopReason();
  out["norms"] = {{"fro", matrixNorm(W, NormKind::Frobenius)},
                  {"nuclear", matrixNorm(W, NormKind::Nuclear)}};
  if (md) out["norms"]["lp"] = matrixNorm(W, NormKind::Lp, lpP);

  if (!o.trace.empty()) writeTextFile(o.trace, traceCsv(snaps, svm, md, lpP));
  std::cout << out.dump(o.pretty ? 2 : -1) << "\n";
  return 0;
}
}  // namespace

Command addTrainCommand(CLI::App& app) {
  auto o = std::make_shared<TrainOptions>();
  CLI::App* sub = app.add_subcommand("train",
                                     "Train attention (W or K Q^T) on the file's data; report the "
                                     "selection, verdict and correlation with its SVMs");
  addInputOptions(sub, *o);
  addModelOptions(sub, *o);
  addOptimizerOptions(sub, *o);
  addOutputOptions(sub, *o);
  Command c;
  c.app = sub;
  c.run = [o, sub]() { return runTrain(*o, *sub); };
  return c;
}

}  // namespace attnsvm::cli
