// Progress reporting on stderr: a redrawn bar on a terminal, plain lines (every 10 %) otherwise.
// Thread-safe: workers call advance() concurrently.
#pragma once
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <string>

namespace attnsvm::cli {

// Hooks for a host that embeds the tool (the Python package, python/src/bind_api.cpp): every
// Progress also reports (label, done, total) to the observer, drawing or not; and long loops stop
// when the host requests cancellation (parallelFor between work items, `train` between chunks of
// iterations) by throwing Cancelled. Process-wide: the host runs one such call at a time.
class ProgressObserver {
 public:
  virtual ~ProgressObserver() = default;
  virtual void update(const std::string& label, long done, long total) = 0;  // any thread
};
void setProgressObserver(ProgressObserver* observer);  // nullptr: none
void requestCancel();
void clearCancel();
bool cancelRequested();
struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};

class Progress {
 public:
  // total: number of work items; enabled = false makes every call a no-op.
  Progress(std::string label, long total, bool enabled = true);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void advance(long k = 1);
  // A new total (work that grows as it goes: the real-images study extends grids).
  void setTotal(long total);
  void finish();  // prints the final state once (also called by the destructor)
  long done() const { return done_.load(); }
  double elapsedSeconds() const;

 private:
  void draw(long done, bool final);
  std::string label_;
  ProgressObserver* observer_;
  std::atomic<long> total_;
  bool enabled_;
  bool tty_;
  bool finished_ = false;
  std::atomic<long> done_{0};
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_, lastDraw_;
  int lastDecile_ = -1;
};

}  // namespace attnsvm::cli
