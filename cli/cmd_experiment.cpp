// attnsvm experiment NAME [--seeds N] [--iters K] [--threads J] [--out FILE.json] [--csv FILE.csv]
#include <iostream>
#include <memory>
#include <sstream>

#include "attnsvm/base/errors.hpp"
#include "commands.hpp"
#include "experiments/experiments.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

namespace {
struct ExperimentCmdOptions {
  std::string name;
  std::string out;
  std::string csv;
  bool list = false;
  bool quiet = false;
  bool pretty = false;
  ExperimentOptions e;
  std::string dims, ps, classes, optimizers;
};

template <class T>
std::vector<T> parseList(const std::string& s, const std::string& option) {
  std::vector<T> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    std::istringstream is(item);
    T v{};
    if (!(is >> v) || !is.eof())
      throw InputError(option + ": '" + item +
                       "' is not a number (expected a comma-separated list)");
    out.push_back(v);
  }
  if (out.empty()) throw InputError(option + " is empty");
  return out;
}
}  // namespace

Command addExperimentCommand(CLI::App& app) {
  auto o = std::make_shared<ExperimentCmdOptions>();
  CLI::App* sub = app.add_subcommand("experiment",
                                     "Run one of the papers' experiments at full settings; JSON "
                                     "(settings, mean/std per iteration, per-seed finals) and CSV");
  sub->add_option("NAME", o->name, "experiment name (--list shows them)");
  sub->add_flag("--list", o->list, "list the experiment names");
  sub->add_option("--seeds", o->e.seeds, "runs / instances per setting (default: the paper's)");
  sub->add_option("--iters", o->e.iters, "iterations per run (default: the paper's)");
  sub->add_option("--threads", o->e.threads,
                  "worker threads (default: all cores); results do not depend on it");
  sub->add_option("--grid", o->e.grid, "basin-map: grid points per axis (default 200)");
  sub->add_option("--every", o->e.every, "record every k-th iteration (default iters/200)");
  sub->add_option("--seed-base", o->e.seedBase, "seed of run k is seed-base + k")
      ->capture_default_str();
  sub->add_option("--dims", o->dims, "rank, multitoken, overparam: comma-separated list of d");
  sub->add_option("--ps", o->ps,
                  "mirror-descent, md-convergence: comma-separated list of training p");
  sub->add_option("--rank-tol", o->e.rankTol, "rank: singular values above this count")
      ->capture_default_str();
  sub->add_option(
      "--classes", o->classes,
      "real-images: two Fashion-MNIST classes A,B (default 7,9: Sneaker vs Ankle boot)");
  sub->add_option("--optimizer", o->optimizers,
                  "real-images: comma-separated optimizers (default nmd,adam; md = plain l_p MD; "
                  "nmd and md run once per --ps, default 1.1,2,3)");
  sub->add_option("--train", o->e.nTrain,
                  "real-images: training images (default 1000, half per class)");
  sub->add_option("--test", o->e.nTest, "real-images: test images (default 1000)");
  sub->add_option("--n-svm", o->e.nSvm,
                  "real-images: training images of the final SVM analysis (default 500)");
  sub->add_option("--lr", o->e.lr, "real-images: step of l_p MD (default 0.1)");
  sub->add_option("--token-dim", o->e.tokenDim,
                  "real-images, real-study, real-ladder: token dimension d, one of 18, 32, 64, "
                  "128, 256, 512 (SPEC 6.5: 18 = the patches, else seeded random ReLU features)");
  sub->add_option("--adam-lr", o->e.adamLr, "real-images: step of Adam (default 0.01)");
  sub->add_option("--data-dir", o->e.dataDir,
                  "real-images: Fashion-MNIST directory (default $ATTNSVM_FASHION_MNIST or "
                  "/usr/share/datasets/fashion-mnist)");
  sub->add_option(
      "--settings", o->e.settings,
      "real-study, real-ladder, real-phase: the settings as a JSON object or @FILE (the core's "
      "field lists RealStudySettings, RealLadderSettings, RealPhaseSettings); --seeds, "
      "--seed-base, --classes override, and for real-study --train, --test, --iters (epochs), "
      "for real-ladder --dims (the sizes n), for real-phase --dims (the token dimensions d)");
  sub->add_option("--out", o->out, "write the JSON result here (default: stdout)");
  sub->add_option("--csv", o->csv, "write the CSV table here");
  sub->add_flag("--quiet", o->quiet, "no progress on stderr");
  sub->add_flag("--pretty", o->pretty, "indent the JSON output");
  Command c;
  c.app = sub;
  c.run = [o]() {
    if (o->list || o->name.empty()) {
      if (o->name.empty() && !o->list)
        throw InputError("experiment needs NAME (one of the names of `attnsvm experiment --list`)");
      std::cout << json(experimentNames()).dump() << "\n";
      return 0;
    }
    ExperimentOptions e = o->e;
    if (!o->dims.empty()) e.dims = parseList<int>(o->dims, "--dims");
    if (!o->ps.empty()) e.ps = parseList<double>(o->ps, "--ps");
    if (!o->classes.empty()) e.classes = parseList<int>(o->classes, "--classes");
    if (!o->optimizers.empty()) {
      std::stringstream ss(o->optimizers);
      std::string item;
      while (std::getline(ss, item, ',')) e.optimizers.push_back(item);
    }
    e.progress = !o->quiet;
    if (e.seeds == 0) throw InputError("--seeds = 0: zero runs");
    const ExperimentResult r = runExperiment(o->name, e);
    const std::string text = r.json.dump(o->pretty ? 2 : -1) + "\n";
    writeTextFile(o->out.empty() ? "-" : o->out, text);
    if (!o->csv.empty()) writeTextFile(o->csv, r.csv);
    if (!o->out.empty() && !o->quiet) {
      std::cerr << "attnsvm: wrote " << o->out;
      if (!o->csv.empty()) std::cerr << " and " << o->csv;
      std::cerr << "\n";
    }
    return 0;
  };
  return c;
}

}  // namespace attnsvm::cli
