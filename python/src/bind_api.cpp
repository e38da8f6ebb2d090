// The public API's C++ side (python/attnsvm/api.py wraps it):
// - cli(args, input): the CLI itself (cli/commands.hpp runCli), in process, reading `input` as
//   its standard input and capturing its standard output and error. Python's scenario, solve,
//   analyze and train run exactly the command line `attnsvm <args>`, so their dicts are the CLI's
//   JSON by construction.
// - experiment(name, options, on_progress): cli::runExperiment with the ExperimentOptions of the
//   CLI's `experiment` options, progress reported to Python (tqdm) and Ctrl-C cancelling it.
// - path(...): the core's regularizationPath (SPEC section 4) with the JS API's request fields.
// Every call but the name lists runs through runInterruptible: GIL released, Ctrl-C honoured.
#include <pybind11/stl.h>

#include <iostream>
#include <sstream>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/train/train.hpp"
#include "bindings.hpp"
#include "commands.hpp"
#include "experiments/experiments.hpp"
#include "json_io.hpp"
#include "options.hpp"

namespace attnsvm::python {

namespace {

// Swaps a stream's buffer for the lifetime of the object (exception-safe restore).
class StreamSwap {
 public:
  StreamSwap(std::ios& stream, std::streambuf* buffer)
      : stream_(stream), old_(stream.rdbuf(buffer)) {}
  ~StreamSwap() { stream_.rdbuf(old_); }
  StreamSwap(const StreamSwap&) = delete;
  StreamSwap& operator=(const StreamSwap&) = delete;

 private:
  std::ios& stream_;
  std::streambuf* old_;
};

// runCli(args) with `input` (JSON text, may be empty) as standard input: {code, out, err}.
json runCliCaptured(const std::vector<std::string>& args, const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out, err;
  int code = 0;
  {
    StreamSwap si(std::cin, in.rdbuf());
    StreamSwap so(std::cout, out.rdbuf());
    StreamSwap se(std::cerr, err.rdbuf());
    code = cli::runCli(args);
  }
  json r;
  r["code"] = code;
  r["out"] = out.str();
  r["err"] = err.str();
  return r;
}

// The CLI's `experiment` options from the Python keywords (names as the CLI's, '-' -> '_').
cli::ExperimentOptions experimentOptions(const py::dict& kw) {
  cli::ExperimentOptions e;
  for (auto item : kw) {
    const std::string key = item.first.cast<std::string>();
    const py::handle v = item.second;
    if (v.is_none()) continue;
    auto asInt = [&]() {
      if (PyFloat_Check(v.ptr()) || PyBool_Check(v.ptr()) || !py::hasattr(v, "__index__"))
        throw py::type_error(key + " must be an int, not " +
                             std::string(py::str(py::type::of(v).attr("__name__"))));
      return v.cast<long long>();
    };
    auto intOption = [&](int& field, long long lo, long long hi) {
      const long long x = asInt();
      if (x < lo || x > hi)
        throw InputError(key + " = " + std::to_string(x) + " is out of range " +
                         std::to_string(lo) + ".." + std::to_string(hi));
      field = static_cast<int>(x);
    };
    auto asDouble = [&]() {
      if (PyUnicode_Check(v.ptr()) || !py::hasattr(v, "__float__"))
        throw py::type_error(key + " must be a number");
      return v.cast<double>();
    };
    if (key == "seeds")
      intOption(e.seeds, 0, cli::kMaxSeeds);
    else if (key == "iters")
      intOption(e.iters, 0, cli::kMaxIters);
    else if (key == "threads")
      intOption(e.threads, 0, cli::kMaxThreads);
    else if (key == "grid")
      intOption(e.grid, 1, cli::kMaxGrid);
    else if (key == "every")
      intOption(e.every, 1, cli::kMaxIters);
    else if (key == "seed_base") {
      const long long x = asInt();
      if (x < 0) throw InputError("seed_base = " + std::to_string(x) + " must be >= 0");
      e.seedBase = static_cast<std::uint64_t>(x);
    } else if (key == "dims" || key == "classes") {
      std::vector<int>& list = key == "dims" ? e.dims : e.classes;
      for (auto x : py::reinterpret_borrow<py::iterable>(v)) list.push_back(x.cast<int>());
    } else if (key == "ps") {
      for (auto x : py::reinterpret_borrow<py::iterable>(v)) e.ps.push_back(x.cast<double>());
    } else if (key == "optimizer") {
      if (PyUnicode_Check(v.ptr())) {
        std::stringstream ss(v.cast<std::string>());
        std::string item;
        while (std::getline(ss, item, ',')) e.optimizers.push_back(item);
      } else {
        for (auto x : py::reinterpret_borrow<py::iterable>(v))
          e.optimizers.push_back(x.cast<std::string>());
      }
    } else if (key == "rank_tol")
      e.rankTol = asDouble();
    else if (key == "train")
      intOption(e.nTrain, 1, 1 << 30);
    else if (key == "test")
      intOption(e.nTest, 1, 1 << 30);
    else if (key == "n_svm")
      intOption(e.nSvm, 1, 1 << 30);
    else if (key == "lr")
      e.lr = asDouble();
    else if (key == "adam_lr")
      e.adamLr = asDouble();
    else if (key == "data_dir")
      e.dataDir = v.cast<std::string>();
    else if (key == "settings")
      e.settings =
          PyUnicode_Check(v.ptr()) ? v.cast<std::string>() : fromPython(v, "settings").dump();
    else
      throw py::type_error(
          "experiment() got an unexpected keyword '" + key +
          "' (accepted: seeds, iters, threads, grid, every, seed_base, dims, ps, rank_tol, "
          "classes, optimizer, train, test, n_svm, lr, adam_lr, data_dir, settings)");
  }
  if (e.seeds == 0) throw InputError("seeds = 0: zero runs");
  return e;
}

}  // namespace

}  // namespace attnsvm::python

void bind_api(pybind11::module_& m) {
  using namespace attnsvm;
  using namespace attnsvm::python;
  // The core's input errors are ValueErrors with its message ("X[2] has 4 tokens, expected 5").
  py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<NumericalError>(m, "NumericalError", PyExc_ArithmeticError);

  m.def("version", [] { return std::string("0.1.0"); });
  m.def("scenario_names", [] { return scenarioNames(); });
  m.def("experiment_names", [] { return cli::experimentNames(); });

  m.def(
      "cli",
      [](const std::vector<std::string>& args, const py::object& input) {
        const std::string text =
            input.is_none() ? std::string() : fromPython(input, "problem").dump();
        const json r =
            runInterruptible([args, text] { return runCliCaptured(args, text); }, py::none());
        return toPython(r);
      },
      py::arg("args"), py::arg("input") = py::none(),
      "Runs `attnsvm <args>` in process (input: its standard input as JSON); returns "
      "{'code', 'out', 'err'}.");

  m.def(
      "experiment",
      [](const std::string& name, const py::dict& options, const py::object& onProgress) {
        cli::ExperimentOptions e = experimentOptions(options);
        e.progress = false;  // no drawing on stderr: Python shows its own bar
        const json r =
            runInterruptible([name, e] { return cli::runExperiment(name, e).json; }, onProgress);
        return toPython(r);
      },
      py::arg("name"), py::arg("options"), py::arg("on_progress") = py::none());
}
