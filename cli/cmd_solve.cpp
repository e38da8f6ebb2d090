// attnsvm solve --norm fro|nuclear|lp [--p P] FILE: the Att-SVM of the file's selection.
#include <iostream>
#include <memory>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "commands.hpp"
#include "json_io.hpp"
#include "options.hpp"

namespace attnsvm::cli {

namespace {
struct SolveOptions {
  std::string file;
  std::string norm = "fro";
  double p = 2.0;
  double tol = -1.0;
  int maxIterations = -1;
  bool pretty = false;
};
}  // namespace

Command addSolveCommand(CLI::App& app) {
  auto o = std::make_shared<SolveOptions>();
  CLI::App* sub = app.add_subcommand("solve",
                                     "Solve the Att-SVM (min ||W|| s.t. <A_it, W> >= 1) of the "
                                     "file's selection; prints one JSON object");
  sub->add_option("FILE", o->file, "input JSON ({X, Z|query, alpha?, Y, v}); - for stdin")
      ->required();
  sub->add_option("--norm", o->norm, "fro (Frobenius), nuclear, or lp (entrywise l_p)")
      ->capture_default_str();
  sub->add_option("--p", o->p, "p of the l_p norm, p > 1 (with --norm lp)")->capture_default_str();
  sub->add_option("--tol", o->tol, "relative gap target (default: the solver's)");
  sub->add_option("--max-iterations", o->maxIterations, "iteration limit of the solver");
  sub->add_flag("--pretty", o->pretty, "indent the JSON output");
  Command c;
  c.app = sub;
  c.run = [o]() {
    SolverSettings settings;
    settings.norm = parseNorm(o->norm);
    checkP(o->p);
    settings.p = settings.norm == NormKind::Lp ? o->p : 2.0;
    if (o->tol >= 0) settings.tolerance = o->tol;
    if (o->maxIterations > 0) settings.maxIterations = o->maxIterations;
    ProblemInput in = problemFromJson(readProblemFile(o->file));
    const MarginProblem problem = attentionSvmProblem(in.data, in.kind, in.units);
    const MarginSolution sol = solveMargin(problem, settings);
    json out = solutionToJson(problem, sol);
    out["norm"] = toString(settings.norm);
    if (settings.norm == NormKind::Lp) out["p"] = settings.p;
    out["selection"] = in.units;
    std::cout << out.dump(o->pretty ? 2 : -1) << "\n";
    if (sol.status == SolveStatus::Infeasible) {
      std::cerr << "attnsvm: infeasible: " << sol.message << "\n";
      return 2;
    }
    if (sol.status == SolveStatus::MaxIterations) {
      std::cerr << "attnsvm: the solver stopped at its iteration limit: " << sol.message << "\n";
      return 3;
    }
    if (sol.status == SolveStatus::Boundary) {  // neither solved nor proven infeasible
      std::cerr << "attnsvm: " << sol.message << "\n";
      return 4;
    }
    return 0;
  };
  return c;
}

}  // namespace attnsvm::cli
