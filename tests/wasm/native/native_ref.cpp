// Native reference driver for the wasm agreement tests (tests/wasm/agreement.test.mjs): reads a
// JSON array of jobs on stdin, runs each through the native core exactly as wasm/bindings.cpp
// does (same defaults), and prints a JSON array of results with round-trip precision. The JSON
// shapes are the JS API's (attnsvm.d.ts), so the test sends the same objects to both sides.
// Test-only code: built by tests/wasm/native/CMakeLists.txt into build/wasm-native-ref.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "../../core/real_svm_data.hpp"
#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/base/errors.hpp"
#include "attnsvm/data/dataset.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/names.hpp"

using json = nlohmann::json;
using namespace attnsvm;

namespace {

Mat toMat(const json& rows) {
  const Index r = static_cast<Index>(rows.size());
  const Index c = r ? static_cast<Index>(rows[0].size()) : 0;
  Mat m(r, c);
  for (Index i = 0; i < r; ++i)
    for (Index j = 0; j < c; ++j) m(i, j) = rows[i][j].get<double>();
  return m;
}
Vec toVec(const json& a) {
  Vec v(static_cast<Index>(a.size()));
  for (Index i = 0; i < v.size(); ++i) v[i] = a[i].get<double>();
  return v;
}
json fromMat(const Mat& m) {
  json rows = json::array();
  for (Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(row);
  }
  return rows;
}
json fromVec(const Vec& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

Dataset toDataset(const json& j) {
  Dataset d;
  const json& X = j.at("X");
  d.n = static_cast<int>(X.size());
  d.T = d.n ? static_cast<int>(X[0].size()) : 0;
  d.d = d.T ? static_cast<int>(X[0][0].size()) : 0;
  d.X.resize(static_cast<Index>(d.n) * d.T, d.d);
  for (int i = 0; i < d.n; ++i)
    for (int t = 0; t < d.T; ++t)
      for (int k = 0; k < d.d; ++k)
        d.X(static_cast<Index>(i) * d.T + t, k) = X[i][t][k].get<double>();
  if (j.contains("Z") && !j["Z"].is_null()) d.Z = toMat(j["Z"]);
  d.query = j.value("query", 0);
  d.Y = toVec(j.at("Y"));
  d.v = toVec(j.at("v"));
  if (j.contains("alpha") && !j["alpha"].is_null()) d.alpha = j["alpha"].get<std::vector<int>>();
  return d;
}
json fromDataset(const Dataset& d) {
  json X = json::array();
  for (int i = 0; i < d.n; ++i) X.push_back(fromMat(d.tokens(i)));
  json o{{"X", X}, {"query", d.query}, {"Y", fromVec(d.Y)}, {"v", fromVec(d.v)}};
  if (d.Z.size() > 0) o["Z"] = fromMat(d.Z);
  if (!d.alpha.empty()) o["alpha"] = d.alpha;
  return o;
}

AttentionKind attention(const std::string& s) {
  if (s == "cross") return AttentionKind::Cross;
  if (s == "self") return AttentionKind::Self;
  if (s == "seq2seq") return AttentionKind::SeqToSeq;
  if (s == "causal") return AttentionKind::Causal;
  throw InputError("attention " + s);
}
Optimizer optimizer(const std::string& s) { return parseWireName<Optimizer>(s, "optimizer"); }
ModelSpec toSpec(const json& j) {
  ModelSpec s;
  s.attention = attention(j.value("attention", "cross"));
  const std::string p = j.value("param", "W");
  s.param = p == "KQ"       ? Parameterization::KQ
            : p == "prompt" ? Parameterization::Prompt
                            : Parameterization::W;
  s.head = j.value("head", "linear") == "relu" ? HeadKind::ReluMLP : HeadKind::Linear;
  const std::string l = j.value("loss", "logistic");
  s.loss = l == "exponential"   ? LossKind::Exponential
           : l == "correlation" ? LossKind::Correlation
                                : LossKind::Logistic;
  s.m = j.value("m", 0);
  if (j.contains("Wk")) s.Wk = toMat(j["Wk"]);
  if (j.contains("V")) s.V = toMat(j["V"]);
  return s;
}
TrainSettings toSettings(const json& j) {
  TrainSettings s;
  s.optimizer = optimizer(j.value("optimizer", "ngd"));
  s.lr = j.value("lr", s.lr);
  s.p = j.value("p", s.p);
  s.balance = j.value("balance", s.balance);
  s.trainHead = j.value("trainHead", s.trainHead);
  s.headOptimizer = optimizer(j.value("headOptimizer", "ngd"));
  s.headLr = j.value("headLr", s.headLr);
  s.headP = j.value("headP", s.headP);
  s.traceEvery = j.value("traceEvery", s.traceEvery);
  s.traceSoftmax = j.value("traceSoftmax", s.traceSoftmax);
  s.traceP = j.value("traceP", s.traceP);
  s.maxNorm = j.value("maxNorm", s.maxNorm);
  return s;
}
Params toParams(const json& j) {
  Params p;
  if (j.contains("W")) p.W = toMat(j["W"]);
  if (j.contains("K")) p.K = toMat(j["K"]);
  if (j.contains("Q")) p.Q = toMat(j["Q"]);
  if (j.contains("p")) p.p = toVec(j["p"]);
  if (j.contains("v")) p.v = toVec(j["v"]);
  return p;
}
json fromParams(const Params& p) {
  json o = json::object();
  if (p.W.size()) o["W"] = fromMat(p.W);
  if (p.K.size()) o["K"] = fromMat(p.K);
  if (p.Q.size()) o["Q"] = fromMat(p.Q);
  if (p.p.size()) o["p"] = fromVec(p.p);
  if (p.v.size()) o["v"] = fromVec(p.v);
  return o;
}
InitSettings toInit(const json& j) {
  InitSettings s;
  const std::string k = j.value("kind", "zero");
  s.kind = k == "random"  ? InitKind::Random
           : k == "given" ? InitKind::Given
           : k == "cone"  ? InitKind::Cone
                          : InitKind::Zero;
  s.seed = j.value("seed", 0ull);
  s.scale = j.value("scale", s.scale);
  if (j.contains("direction")) s.direction = toMat(j["direction"]);
  s.coneNoise = j.value("coneNoise", s.coneNoise);
  if (j.contains("given")) s.given = toParams(j["given"]);
  return s;
}

// Same defaults as wasm/bindings.cpp.
std::vector<int> selectionOf(const json& req, const Dataset& d) {
  if (req.contains("selection")) return req["selection"].get<std::vector<int>>();
  if (!d.alpha.empty()) return d.alpha;
  return optimalTokens(d).opt;
}
SolverSettings toSolver(const json& j) {
  SolverSettings s;
  const std::string n = j.value("norm", "fro");
  s.norm = n == "nuclear" ? NormKind::Nuclear : n == "lp" ? NormKind::Lp : NormKind::Frobenius;
  s.p = j.value("p", s.p);
  s.tolerance = j.value("tolerance", s.tolerance);
  s.maxIterations = j.value("maxIterations", s.maxIterations);
  return s;
}
json fromSolution(const MarginSolution& s, const MarginProblem& pr) {
  json support = json::array();
  for (int c : s.support) support.push_back({pr.label[c].sequence, pr.label[c].token});
  const char* st = wireName(s.status);
  return {{"status", st},
          {"W", fromMat(s.W)},
          {"lambda", fromVec(s.lambda)},
          {"objective", s.objective},
          {"lowerBound", s.lowerBound},
          {"gap", s.gap},
          {"maxViolation", s.maxViolation},
          {"support", support},
          {"iterations", s.iterations},
          {"message", s.message}};
}

MarginProblem problemOf(const json& req, const Dataset& d) {
  const std::string problem = req.value("problem", "attention");
  const AttentionKind kind = attention(req.value("attention", d.Z.size() > 0 ? "cross" : "self"));
  if (problem == "attention") {
    validate(d, kind);
    return attentionSvmProblem(d, kind, selectionOf(req, d));
  }
  validate(d, AttentionKind::SeqToSeq);  // as the bindings: sizes and finiteness
  if (problem == "head") return headSvmProblem(d, selectionOf(req, d));
  const Mat Wk = toMat(req.at("Wk"));
  if (problem == "prompt") return promptSvmProblem(d, Wk, selectionOf(req, d));
  return relaxedPromptSvmProblem(d, Wk, selectionOf(req, d),
                                 req.at("headSupport").get<std::vector<int>>());
}

// Median per-call process CPU time in ms (CPU time, not wall time: the machine is shared, and
// other processes inflate wall time but hardly CPU time). Calls are batched so that each sample
// lasts >= 20 ms; the same protocol as bench/wasm/wasm-vs-native.mjs uses for wasm.
double cpuMs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}
template <class F>
double medianMs(int samples, F&& f) {
  double t0 = cpuMs();
  f();  // warm-up, and the batch size
  const double once = std::max(cpuMs() - t0, 1e-4);
  const int batch = std::max(1, static_cast<int>(20.0 / once));
  std::vector<double> ms;
  for (int r = 0; r < samples; ++r) {
    t0 = cpuMs();
    for (int k = 0; k < batch; ++k) f();
    ms.push_back((cpuMs() - t0) / batch);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

json run(const json& job) {
  const std::string cmd = job.at("cmd");
  const int repeats = job.value("repeats", 5);
  if (cmd == "benchTrain") {  // Trainer construction + step(iterations), as Run.step does in wasm
    const Model model(toDataset(job["dataset"]), toSpec(job["model"]));
    const TrainSettings settings = toSettings(job["train"]);
    const Params init = initialParams(model, toInit(job["init"]));
    double sink = 0;
    const double ms = medianMs(repeats, [&] {
      Trainer tr(model, settings, init);
      tr.step(job["iterations"].get<int>());
      sink += tr.takeTrace().loss.back();
    });
    return {{"ms", ms}, {"sink", sink}};
  }
  if (cmd == "benchSolve") {
    const Dataset d = toDataset(job["dataset"]);
    const MarginProblem pr = problemOf(job, d);
    const SolverSettings s = toSolver(job);
    double sink = 0;
    const double ms = medianMs(repeats, [&] { sink += solveMargin(pr, s).objective; });
    return {{"ms", ms}, {"sink", sink}};
  }
  if (cmd == "realSvmDataset") {  // issue 26's real-image instances (tests/core/real_svm_data.hpp)
    svmtest::RealSvmSpec s;
    s.classA = job.value("classA", s.classA);
    s.classB = job.value("classB", s.classB);
    s.n = job.value("n", s.n);
    s.pool = job.value("pool", s.pool);
    s.seed = job.value("seed", s.seed);
    s.trainIterations = job.value("trainIterations", s.trainIterations);
    return fromDataset(svmtest::realSvmDataset(s));
  }
  if (cmd == "sphere")
    return fromDataset(
        sphereDataset(job["n"], job["T"], job["d"], job["seed"].get<std::uint64_t>()));
  if (cmd == "scenario") {
    ScenarioOptions o;
    const json& op = job.value("options", json::object());
    o.seed = op.value("seed", 0ull);
    o.n = op.value("n", -1);
    o.T = op.value("T", -1);
    o.d = op.value("d", -1);
    o.C = op.value("C", 1.0);
    o.start = op.value("start", 0);
    o.localCase = op.value("localCase", false);
    o.variant = op.value("variant", 0);
    const Scenario s = makeScenario(job["name"], o);
    return {{"dataset", fromDataset(s.data)},
            {"init", fromParams(s.init)},
            {"iterations", s.iterations}};
  }
  if (cmd == "forward") {
    const Model model(toDataset(job["dataset"]), toSpec(job["model"]));
    Params p = model.zeroParams();
    const Params g = toParams(job.value("params", json::object()));
    if (g.W.size()) p.W = g.W;
    if (g.K.size()) p.K = g.K;
    if (g.Q.size()) p.Q = g.Q;
    if (g.p.size()) p.p = g.p;
    if (g.v.size()) p.v = g.v;
    if (p.v.size() == 0) p.v = model.data().v;
    const Forward f = model.forward(p);
    return {{"softmax", fromMat(f.softmax)},
            {"output", fromVec(f.output)},
            {"selected", f.selected},
            {"selectedProbability", fromVec(f.selectedProbability)},
            {"loss", f.loss}};
  }
  if (cmd == "train") {
    const Model model(toDataset(job["dataset"]), toSpec(job["model"]));
    Trainer tr(model, toSettings(job["train"]), initialParams(model, toInit(job["init"])));
    for (const json& r : job.value("references", json::array()))
      tr.addReference(r["name"], toMat(r["W"]));
    json chunks = json::array();
    for (int k : job["steps"].get<std::vector<int>>()) {
      tr.step(k);
      const Trace t = tr.takeTrace();
      chunks.push_back({{"iteration", t.iteration},
                        {"loss", t.loss},
                        {"normFro", t.normFro},
                        {"normNuc", t.normNuc},
                        {"normLp", t.normLp},
                        {"selected", t.selected},
                        {"selectedProbability", t.selectedProbability},
                        {"corr", t.corr},
                        {"divergence", t.divergence},
                        {"softmax", t.softmax},
                        {"weights", fromMat(tr.weights())},
                        {"stopped", tr.stopped()}});
    }
    return {{"chunks", chunks}, {"params", fromParams(tr.params())}};
  }
  if (cmd == "solve") {
    const Dataset d = toDataset(job["dataset"]);
    const MarginProblem pr = problemOf(job, d);
    return fromSolution(solveMargin(pr, toSolver(job)), pr);
  }
  if (cmd == "analyze") {
    const Dataset d = toDataset(job["dataset"]);
    const AttentionKind kind = attention(job.value("attention", d.Z.size() > 0 ? "cross" : "self"));
    const SolverSettings s = toSolver(job);
    const SelectionReport r = job.contains("W") ? analyzeWeights(d, kind, toMat(job["W"]), s)
                                                : analyzeSelection(d, kind, selectionOf(job, d), s);
    const char* v = wireName(r.verdict);
    return {{"selection", r.selection},
            {"optimal", r.optimal},
            {"ties", r.ties},
            {"feasible", r.feasible},
            {"verdict", v},
            {"supportTokens", r.supportTokens},
            {"explanation", r.explanation},
            {"svm", fromSolution(r.svm, attentionSvmProblem(d, kind, r.selection))}};
  }
  if (cmd == "enumerate") {
    const Dataset d = toDataset(job["dataset"]);
    const AttentionKind kind = attention(job.value("attention", d.Z.size() > 0 ? "cross" : "self"));
    validate(d, kind);
    json out = json::array();
    for (const SelectionReport& r :
         enumerateLocallyOptimal(d, kind, job.value("maxSelections", 200000ll)))
      out.push_back({{"selection", r.selection},
                     {"feasible", r.feasible},
                     {"supportTokens", r.supportTokens},
                     {"svm", fromSolution(r.svm, attentionSvmProblem(d, kind, r.selection))}});
    return out;
  }
  if (cmd == "generalized") {
    const Dataset d = toDataset(job["dataset"]);
    validate(d, AttentionKind::SeqToSeq);
    const GeneralizedSvm g =
        generalizedSvm(d, toMat(job["softmax"]), job.value("threshold", 1e-3), toSolver(job));
    json o{{"selectedSets", g.selectedSets},
           {"directionW", fromMat(g.direction.W)},
           {"objective", g.direction.objective},
           {"status", g.direction.status == SolveStatus::Optimal ? "optimal" : "other"},
           {"finite", fromMat(g.finite)}};
    if (job.contains("W")) o["radius"] = fitRadius(g, toMat(job["W"]));
    return o;
  }
  if (cmd == "path") {
    const Model model(toDataset(job["dataset"]), toSpec(job["model"]));
    PathSettings ps;
    const std::string n = job.value("norm", "fro");
    ps.norm = n == "nuclear" ? BallNorm::Nuclear : n == "lp" ? BallNorm::Lp : BallNorm::Frobenius;
    ps.p = job.value("p", ps.p);
    ps.iterationsPerRadius = job.value("iterationsPerRadius", ps.iterationsPerRadius);
    json out = json::array();
    for (const Mat& w : regularizationPath(model, job["radii"].get<std::vector<double>>(), ps))
      out.push_back(fromMat(w));
    return out;
  }
  throw InputError("unknown cmd " + cmd);
}

}  // namespace

int main() {
  json jobs = json::parse(std::cin);
  json out = json::array();
  for (const json& job : jobs) {
    try {
      out.push_back({{"ok", true}, {"result", run(job)}});
    } catch (const std::exception& e) {
      out.push_back({{"ok", false}, {"error", e.what()}});
    }
  }
  std::cout << out.dump() << "\n";
  return 0;
}
