// Progress reporting on stderr: a redrawn bar on a terminal, plain lines (every 10 %) otherwise.
// Thread-safe: workers call advance() concurrently.
#pragma once
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>

namespace attnsvm::cli {

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
