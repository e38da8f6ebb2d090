// attnsvm analyze FILE: optimal tokens and ties, the given selection's feasibility, support tokens
// and verdict; with "W" in the file, the selection of that W; --enumerate lists every feasible,
// locally optimal selection (the possible limits of gradient descent).
#include <iostream>
#include <memory>

#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/base/errors.hpp"
#include "commands.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

namespace {
struct AnalyzeOptions {
  std::string file;
  bool enumerate = false;
  long long maxSelections = 200000;
  bool pretty = false;
};

}  // namespace

Command addAnalyzeCommand(CLI::App& app) {
  auto o = std::make_shared<AnalyzeOptions>();
  CLI::App* sub = app.add_subcommand("analyze",
                                     "Token-selection analysis: optimal tokens, feasibility, "
                                     "support tokens and verdict of the selection");
  sub->add_option("FILE", o->file, "input JSON ({X, Z|query, alpha?, Y, v, W?}); - for stdin")
      ->required();
  sub->add_flag("--enumerate", o->enumerate,
                "also list every feasible, locally optimal selection (T^n selections)");
  sub->add_option("--max-selections", o->maxSelections, "cap on T^n for --enumerate")
      ->capture_default_str();
  sub->add_flag("--pretty", o->pretty, "indent the JSON output");
  Command c;
  c.app = sub;
  c.run = [o]() {
    const json input = readProblemFile(o->file);
    ProblemInput in = problemFromJson(input);
    if (in.kind != AttentionKind::Cross && in.kind != AttentionKind::Self)
      throw InputError(
          "analyze supports cross and self attention (one selected token per sequence)");
    const SelectionReport report = analyzeSelection(in.data, in.kind, in.data.alpha);
    json out =
        selectionReportToJson(report, attentionSvmProblem(in.data, in.kind, report.selection));
    out["alphaGiven"] = in.alphaGiven;
    out["attention"] = toString(in.kind);
    if (input.contains("W")) {
      const Mat W = readMatrix(input["W"], "W", in.data.d, in.data.d);
      const SelectionReport wr = analyzeWeights(in.data, in.kind, W);
      out["weights"] =
          selectionReportToJson(wr, attentionSvmProblem(in.data, in.kind, wr.selection));
    }
    if (o->enumerate) {
      json list = json::array();
      for (const SelectionReport& r : enumerateLocallyOptimal(in.data, in.kind, o->maxSelections)) {
        json e;
        e["selection"] = r.selection;
        e["verdict"] = toString(r.verdict);
        e["supportTokens"] = r.supportTokens;
        e["objective"] = r.svm.objective;
        list.push_back(std::move(e));
      }
      out["locallyOptimal"] = std::move(list);
    }
    std::cout << out.dump(o->pretty ? 2 : -1) << "\n";
    return 0;
  };
  return c;
}

}  // namespace attnsvm::cli
