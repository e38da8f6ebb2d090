// Progress reporting on stderr (see progress.hpp).
#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace attnsvm::cli {

namespace {
std::atomic<ProgressObserver*> gObserver{nullptr};
std::atomic<bool> gCancel{false};
}  // namespace

void setProgressObserver(ProgressObserver* observer) { gObserver.store(observer); }
void requestCancel() { gCancel.store(true); }
void clearCancel() { gCancel.store(false); }
bool cancelRequested() { return gCancel.load(); }

Progress::Progress(std::string label, long total, bool enabled)
    : label_(std::move(label)),
      observer_(gObserver.load()),
      total_(total < 1 ? 1 : total),
      enabled_(enabled),
      tty_(enabled && isatty(STDERR_FILENO) != 0) {
  start_ = lastDraw_ = std::chrono::steady_clock::now();
  if (observer_) observer_->update(label_, 0, total_.load());
  if (enabled_ && tty_) draw(0, false);
}

Progress::~Progress() { finish(); }

double Progress::elapsedSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::advance(long k) {
  const long now = done_.fetch_add(k) + k;
  if (observer_) observer_->update(label_, now, total_.load());
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  if (tty_) {
    const auto t = std::chrono::steady_clock::now();
    if (now < total_.load() && t - lastDraw_ < std::chrono::milliseconds(100)) return;
    lastDraw_ = t;
    draw(now, false);
  } else {
    const long total = total_.load();
    const int decile = static_cast<int>(10 * now / total);
    if (decile > lastDecile_ && now < total) {
      lastDecile_ = decile;
      draw(now, false);
    }
  }
}

void Progress::setTotal(long total) {
  total_.store(total < 1 ? 1 : total);
  if (observer_) observer_->update(label_, done_.load(), total_.load());
}

void Progress::finish() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  draw(done_.load(), true);
}

void Progress::draw(long done, bool final) {
  const double elapsed = elapsedSeconds();
  const long total = total_.load();
  const double frac = static_cast<double>(done) / static_cast<double>(total);
  if (tty_) {
    const int width = 30;
    const int filled = static_cast<int>(frac * width + 1e-9);
    char bar[64];
    int k = 0;
    for (; k < filled && k < width; ++k) bar[k] = '#';
    for (; k < width; ++k) bar[k] = '.';
    bar[width] = '\0';
    if (final) {
      std::fprintf(stderr, "\r%s [%s] %ld/%ld  %.2f s        \n", label_.c_str(), bar, done, total,
                   elapsed);
    } else {
      const double eta = done > 0 ? elapsed * (1.0 - frac) / frac : 0.0;
      std::fprintf(stderr, "\r%s [%s] %ld/%ld  %.1f s  ETA %.1f s   ", label_.c_str(), bar, done,
                   total, elapsed, eta);
    }
  } else {
    std::fprintf(stderr, "%s: %ld/%ld (%d%%) %.2f s%s\n", label_.c_str(), done, total,
                 static_cast<int>(100.0 * frac), elapsed, final ? " done" : "");
  }
  std::fflush(stderr);
}

}  // namespace attnsvm::cli
