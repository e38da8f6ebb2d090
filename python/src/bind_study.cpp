// The real-data study (SPEC 6.1) for a distributed driver (python/attnsvm/dask_study.py): the
// core's planner RealStudy (take / submit / table), one run as a pure function of its field list
// (a dict in, a dict out: what a Dask task ships), and the CLI's JSON of the finished study
// (cli/experiments/real_study.cpp's realStudyResult). The driver keeps the planner in its own
// process and only schedules runs, as the CLI's threads and the lab's workers do; a run computes
// the same bits wherever it runs, so the study's JSON is the CLI's.
#include <pybind11/stl.h>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "attnsvm/experiments/real_study.hpp"
#include "bindings.hpp"
#include "experiments.hpp"
#include "json_io.hpp"

namespace {

using namespace attnsvm;
using attnsvm::python::fromPython;
using attnsvm::python::json;
using attnsvm::python::toPython;
namespace py = pybind11;

// Fashion-MNIST (both files, ~55 MB) read once per process and directory: a worker runs many runs.
std::shared_ptr<const RealStudyImages> imagesFor(const std::string& directory) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const RealStudyImages>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[directory];
  if (!slot) {
    slot = std::make_shared<const RealStudyImages>(
        RealStudyImages{readFashionMnist("train", directory), readFashionMnist("t10k", directory)});
  }
  return slot;
}

template <class T>
T fieldsFrom(const py::handle& h, const std::string& what) {
  return cli::fieldsFromJson<T>(fromPython(h, what), what);
}

py::list listOf(const std::vector<json>& items) {
  py::list out;
  for (const json& j : items) out.append(toPython(j));
  return out;
}

}  // namespace

void bind_study(py::module_& m) {
  py::class_<RealStudy>(m, "RealStudy", R"doc(
The planner of the real-data study (SPEC 6.1; the CLI's `experiment real-study`).

RealStudy(settings) takes the RealStudySettings fields as a dict (tasks, nTrain, nValidation,
nTest, methods, design, ablationMethods, batch, initScale, epochs, stopAccuracy, evalEvery, seeds,
tuneSeeds, seedBase, gridPoints, gridRatio, maxExtensions, gridCenters; absent keys keep the CLI's
defaults). take() hands out runs (dicts: RealStudyRun's fields), submit() takes their results (dicts:
RealStudyRunResult's fields) in any order; a configuration's step is chosen when all its tuning runs
are in, so the plan and the table do not depend on the order of arrival.)doc")
      .def(py::init([](const py::dict& settings) {
             return RealStudy(fieldsFrom<RealStudySettings>(settings, "settings"));
           }),
           py::arg("settings"))
      .def_property_readonly(
          "settings", [](const RealStudy& s) { return toPython(cli::fieldsToJson(s.settings())); })
      .def(
          "take",
          [](RealStudy& s, int count) {
            std::vector<json> runs;
            for (const RealStudyRun& r : s.take(count)) runs.push_back(cli::fieldsToJson(r));
            return listOf(runs);
          },
          py::arg("count"),
          "Up to `count` runs ready to start, each handed out once; [] while the runs in flight "
          "decide what comes next, and at the end.")
      .def(
          "submit",
          [](RealStudy& s, const py::dict& result) {
            s.submit(fieldsFrom<RealStudyRunResult>(result, "result"));
          },
          py::arg("result"), "A run's result (ValueError for an unknown or repeated id).")
      .def_property_readonly("done", &RealStudy::done)
      .def_property_readonly("submitted", &RealStudy::submitted)
      .def_property_readonly("in_flight", &RealStudy::inFlight)
      .def_property_readonly("planned_runs", &RealStudy::plannedRuns,
                             "Runs planned so far plus those certain to come (grows with a grid "
                             "extension).")
      .def(
          "table",
          [](const RealStudy& s) {
            std::vector<json> rows;
            for (const RealStudyRow& r : s.table()) rows.push_back(cli::fieldsToJson(r));
            return listOf(rows);
          },
          "The study's rows (ValueError unless done).")
      .def(
          "runs",
          [](const RealStudy& s) {
            std::vector<json> runs;
            for (const RealStudyRun& r : s.runs()) runs.push_back(cli::fieldsToJson(r));
            return listOf(runs);
          },
          "Every run planned so far, by id.")
      .def(
          "result_json",
          [](const RealStudy& s, int threads, const std::vector<double>& cpuSeconds,
             double seconds) {
            cli::ExperimentOptions o;
            o.seedBase = s.settings().seedBase;
            const cli::ExperimentResult r =
                cli::realStudyResult(s, o, threads, cpuSeconds, seconds);
            return py::make_tuple(r.json.dump(), r.csv);
          },
          py::arg("threads"), py::arg("cpu_seconds"), py::arg("seconds"),
          "(json_text, csv_text) of the finished study, written by the CLI's own code (`attnsvm "
          "experiment real-study`): threads, cpu_seconds[id] of each run and the wall seconds are "
          "the only values an engine adds.");

  m.def(
      "load_real_study_images",
      [](const std::string& dataDir) {
        py::gil_scoped_release release;
        imagesFor(dataDir);
      },
      py::arg("data_dir") = "",
      "Reads Fashion-MNIST for run_real_study_run now (once per process and directory), so that "
      "a run's measured CPU time is the run's alone, as in the CLI (which reads the files first).");

  m.def(
      "run_real_study_run",
      [](const py::dict& run, const std::string& dataDir) {
        const RealStudyRun r = fieldsFrom<RealStudyRun>(run, "run");
        RealStudyRunResult result;
        {
          py::gil_scoped_release release;
          const std::shared_ptr<const RealStudyImages> images = imagesFor(dataDir);
          result = runRealStudyRun(*images, r);
        }
        return toPython(cli::fieldsToJson(result));
      },
      py::arg("run"), py::arg("data_dir") = "",
      "One run of the study (a dict of RealStudyRun's fields) to its result (RealStudyRunResult's "
      "fields): the core's runRealStudyRun on Fashion-MNIST from data_dir (default "
      "$ATTNSVM_FASHION_MNIST or /usr/share/datasets/fashion-mnist), read once per process.");
}
