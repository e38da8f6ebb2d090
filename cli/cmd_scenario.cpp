// attnsvm scenario NAME [--seed S]: a named scenario's dataset (plus its model and training
// settings) as JSON that `solve`, `analyze` and `train` read back; attnsvm generate sphere.
#include <iostream>
#include <memory>

#include "attnsvm/base/errors.hpp"
#include "commands.hpp"
#include "json_io.hpp"
#include "options.hpp"
#include "problem_source.hpp"

namespace attnsvm::cli {

namespace {
struct ScenarioCmdOptions {
  std::string name;
  bool list = false;
  std::uint64_t seed = 0;
  int n = -1, T = -1, d = -1, start = 0, variant = 0;
  double C = 1.0;
  bool localCase = false;
  bool pretty = false;
};

constexpr int kMaxSize = 100000;
void checkSize(int value, const char* name) {
  if (value != -1 && (value < 1 || value > kMaxSize))
    throw InputError(std::string("--") + name + " = " + std::to_string(value) +
                     " is out of range 1.." + std::to_string(kMaxSize));
}
}  // namespace

Command addScenarioCommand(CLI::App& app) {
  auto o = std::make_shared<ScenarioCmdOptions>();
  CLI::App* sub = app.add_subcommand(
      "scenario", "Print a named scenario of the papers as JSON (dataset + model + settings)");
  sub->add_option("NAME", o->name, "scenario name (--list shows them)");
  sub->add_flag("--list", o->list, "list the scenario names");
  sub->add_option("--seed", o->seed, "seed of random data")->capture_default_str();
  addScenarioOptions(sub, *o);
  sub->add_flag("--pretty", o->pretty, "indent the JSON output");
  Command c;
  c.app = sub;
  c.run = [o]() {
    if (o->list || o->name.empty()) {
      json names = scenarioNames();
      std::cout << names.dump(o->pretty ? 2 : -1) << "\n";
      return 0;
    }
    checkSize(o->n, "n");
    checkSize(o->T, "T");
    checkSize(o->d, "d");
    const Scenario s = makeScenario(o->name, scenarioOptionsOf(*o));
    json out = datasetToJson(s.data, s.model.attention);
    out["scenario"] = s.name;
    out["title"] = s.title;
    out["iterations"] = s.iterations;
    // train FILE --head relu reads the head's V from the top level
    if (s.model.head == HeadKind::ReluMLP && s.model.V.size() > 0) out["V"] = toJson(s.model.V);
    out["model"] = fieldsToJson(s.model);
    out["train"] = fieldsToJson(s.train);
    out["init"] = fieldsToJson(s.init);  // the initial parameters (W, K, Q, p, v)
    std::cout << out.dump(o->pretty ? 2 : -1) << "\n";
    return 0;
  };
  return c;
}

Command addGenerateCommand(CLI::App& app) {
  auto o = std::make_shared<ScenarioCmdOptions>();
  auto kind = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "generate", "Generate random data: `generate sphere --n N --T T --d D --seed S`");
  sub->add_option("KIND", *kind, "sphere (unit tokens, queries and head; alpha = optimal tokens)")
      ->required();
  o->n = 6;
  o->T = 8;
  o->d = 10;
  sub->add_option("--n", o->n, "number of sequences")->capture_default_str();
  sub->add_option("--T", o->T, "tokens per sequence")->capture_default_str();
  sub->add_option("--d", o->d, "dimension")->capture_default_str();
  sub->add_option("--seed", o->seed, "seed")->capture_default_str();
  sub->add_flag("--pretty", o->pretty, "indent the JSON output");
  Command c;
  c.app = sub;
  c.run = [o, kind]() {
    if (*kind != "sphere") throw InputError("generate " + *kind + " is unknown; expected sphere");
    checkSize(o->n, "n");
    checkSize(o->T, "T");
    checkSize(o->d, "d");
    if (static_cast<double>(o->n) * o->T * o->d > 5e7)
      throw InputError(
          "generate: n*T*d = " + std::to_string(static_cast<double>(o->n) * o->T * o->d) +
          " is above the limit 5e7");
    const Dataset data = sphereDataset(o->n, o->T, o->d, o->seed);
    std::cout << datasetToJson(data, AttentionKind::Cross).dump(o->pretty ? 2 : -1) << "\n";
    return 0;
  };
  return c;
}

}  // namespace attnsvm::cli
