// The extension module attnsvm._core (module.cpp) is assembled from binding groups, one per file:
// bind_api (the CLI's commands and the core's calls of the public API, bind_api.cpp) and
// bind_study (the real-data study on Dask, bind_study.cpp). Shared by them: JSON <-> Python
// conversion (json_py.cpp) and running C++ work with the GIL released, interruptible by Ctrl-C
// (interruptible.cpp).
#pragma once
#include <pybind11/pybind11.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace attnsvm::python {

namespace py = pybind11;
using json = nlohmann::json;

// nlohmann JSON -> Python: objects to dicts, arrays to lists, numbers to int/float (NaN stays
// null -> None, as the CLI writes it).
py::object toPython(const json& j);
// Python -> JSON: dict (str keys), list/tuple, bool, int, float, str, None, numpy arrays and
// scalars and anything with tolist() (torch tensors). Throws py::type_error naming the place
// (`what`, e.g. "problem['X'][2]") of a value it cannot convert.
json fromPython(py::handle h, const std::string& what);

// Progress of the running call as reported by the CLI's Progress (label, done, total).
using ProgressCallback = std::function<void(const std::string& label, long done, long total)>;

// Runs work() on a worker thread with the GIL released; the calling thread wakes every 50 ms,
// takes the GIL, runs PyErr_CheckSignals() and calls onProgress (Python code, GIL held) with the
// latest progress. On a signal (Ctrl-C: KeyboardInterrupt) or an exception from onProgress it
// requests cancellation of the CLI's loops (cli/progress.hpp) and raises that Python exception at
// once; the worker stops at its next cancellation point. work() must own what it uses (capture by
// value): it may outlive the call. Calls are serialized (the CLI's cancel flag and observer are
// process-wide). Exceptions of work() are rethrown (InputError -> ValueError, bind_api).
json runInterruptible(std::function<json()> work, const py::object& onProgress);

}  // namespace attnsvm::python

void bind_api(pybind11::module_& m);
void bind_study(pybind11::module_& m);
