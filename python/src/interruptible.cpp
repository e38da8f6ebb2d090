// Long C++ calls with the GIL released and Ctrl-C honoured (bindings.hpp runInterruptible).
#include <chrono>
#include <condition_variable>
#include <exception>
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
}  // namespace

json runInterruptible(const std::function<json()>& work, const py::object& onProgress) {
  json result;
  std::exception_ptr error;
  // A Python exception raised while we wait (KeyboardInterrupt from the signal handler, or from
  // onProgress), kept as (type, value, traceback) and restored once the worker has stopped.
  PyObject *excType = nullptr, *excValue = nullptr, *excTrace = nullptr;
  {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> call(gCallMutex);
    LatestProgress progress;
    cli::clearCancel();
    cli::setProgressObserver(&progress);
    std::mutex m;
    std::condition_variable cv;
    bool finished = false;
    std::thread worker([&] {
      try {
        result = work();
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(m);
      finished = true;
      cv.notify_all();
    });
    bool cancelled = false;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(m);
        if (cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return finished; })) break;
      }
      if (cancelled) continue;  // waiting for the worker to reach its next cancellation point
      py::gil_scoped_acquire acquire;
      bool raised = PyErr_CheckSignals() != 0;
      std::string label;
      long done = 0, total = 0;
      if (!raised && !onProgress.is_none() && progress.take(label, done, total)) {
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
        cancelled = true;
      }
    }
    worker.join();
    cli::setProgressObserver(nullptr);
    cli::clearCancel();
    if (!cancelled && !onProgress.is_none()) {
      std::string label;
      long done = 0, total = 0;
      if (progress.take(label, done, total)) {
        py::gil_scoped_acquire acquire;
        onProgress(label, done, total);  // the final state (a bar that ends at 100 %)
      }
    }
  }
  if (excType != nullptr) {
    PyErr_Restore(excType, excValue, excTrace);
    throw py::error_already_set();
  }
  if (error) std::rethrow_exception(error);
  return result;
}

}  // namespace attnsvm::python
