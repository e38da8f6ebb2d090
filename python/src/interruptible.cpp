// Long C++ calls with the GIL released and Ctrl-C honoured (bindings.hpp runInterruptible).
//
// The work runs on its own thread; the calling (Python) thread waits in slices of 50 ms and, with
// the GIL held briefly, checks for signals and reports progress. On Ctrl-C it requests the CLI's
// cancellation (cli/progress.hpp) and raises KeyboardInterrupt at once: the worker, which owns
// everything it uses (CallState), stops at its next cancellation point (an experiment between
// work items, train every 256 steps) and then releases the call lock, so a next call waits for it.
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "bindings.hpp"
#include "progress.hpp"

namespace attnsvm::python {

namespace {
// One call at a time: the CLI's cancel flag and progress observer are process-wide.
std::mutex gCallMutex;

// Latest progress from the CLI's Progress objects (any worker thread).
class LatestProgress : public cli::ProgressObserver {
 public:
  void update(const std::string& label, long done, long total) override {
    std::lock_guard<std::mutex> lock(mutex_);
    label_ = label;
    done_ = done;
    total_ = total;
    changed_ = true;
  }
  // Copies the latest state if it changed since the last take.
  bool take(std::string& label, long& done, long& total) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!changed_) return false;
    changed_ = false;
    label = label_;
    done = done_;
    total = total_;
    return true;
  }

 private:
  std::mutex mutex_;
  std::string label_;
  long done_ = 0, total_ = 0;
  bool changed_ = false;
};

// Everything the worker touches: shared with the caller, kept alive by the worker if the caller
// leaves first (Ctrl-C).
struct CallState {
  std::function<json()> work;
  LatestProgress progress;
  std::mutex m;
  std::condition_variable cv;
  bool finished = false;
  json result;
  std::exception_ptr error;
};

void runWorker(const std::shared_ptr<CallState>& st) {
  std::lock_guard<std::mutex> call(gCallMutex);
  cli::clearCancel();
  cli::setProgressObserver(&st->progress);
  try {
    st->result = st->work();
  } catch (...) {
    st->error = std::current_exception();
  }
  cli::setProgressObserver(nullptr);
  cli::clearCancel();
  std::lock_guard<std::mutex> lock(st->m);
  st->finished = true;
  st->cv.notify_all();
}
}  // namespace

json runInterruptible(std::function<json()> work, const py::object& onProgress) {
  auto st = std::make_shared<CallState>();
  st->work = std::move(work);
  // A Python exception raised while we wait (KeyboardInterrupt from the signal handler, or from
  // onProgress), as (type, value, traceback).
  PyObject *excType = nullptr, *excValue = nullptr, *excTrace = nullptr;
  {
    py::gil_scoped_release release;
    std::thread worker([st] { runWorker(st); });
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(st->m);
        if (st->cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return st->finished; }))
          break;
      }
      py::gil_scoped_acquire acquire;
      bool raised = PyErr_CheckSignals() != 0;
      std::string label;
      long done = 0, total = 0;
      if (!raised && !onProgress.is_none() && st->progress.take(label, done, total)) {
        try {
          onProgress(label, done, total);
        } catch (py::error_already_set& e) {
          e.restore();
          raised = true;
        }
      }
      if (raised) {
        PyErr_Fetch(&excType, &excValue, &excTrace);
        cli::requestCancel();
        break;
      }
    }
    if (excType != nullptr) {
      worker.detach();  // it stops at its next cancellation point and frees its state
    } else {
      worker.join();
      std::string label;
      long done = 0, total = 0;
      if (!onProgress.is_none() && st->progress.take(label, done, total)) {
        py::gil_scoped_acquire acquire;
        onProgress(label, done, total);  // the final state (a bar that ends at 100 %)
      }
    }
  }
  if (excType != nullptr) {
    PyErr_Restore(excType, excValue, excTrace);
    throw py::error_already_set();
  }
  if (st->error) std::rethrow_exception(st->error);
  return std::move(st->result);
}

}  // namespace attnsvm::python
