// A plan's runs handed out in order and their results taken back in any order, once each: what
// the regime ladder (real_ladder.hpp), the phase diagram (real_phase.hpp) and the study
// (real_study.hpp) share. Ids are the runs' indices. A fixed plan pushes its runs then calls
// seal(); a plan that grows while results come in (the study extends its grids and adds the
// final seeds at the chosen step) calls add() for each run instead.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "attnsvm/base/errors.hpp"

namespace attnsvm::experiment_detail {

template <class Run, class Result>
struct RealRunQueue {
  std::vector<Run> runs;
  std::vector<Result> results;
  std::vector<char> handedOut, received;
  int next = 0, submitted = 0;

  void seal() {
    results.resize(runs.size());
    handedOut.assign(runs.size(), 0);
    received.assign(runs.size(), 0);
  }
  // Appends a run (its id becomes its index) and returns the id; its result stays empty (id -1)
  // until it is accepted.
  int add(Run r) {
    const int id = static_cast<int>(runs.size());
    r.id = id;
    runs.push_back(std::move(r));
    handedOut.push_back(0);
    received.push_back(0);
    results.emplace_back();
    results.back().id = -1;
    return id;
  }
  std::vector<Run> take(int count) {
    std::vector<Run> out;
    while (static_cast<int>(out.size()) < count && next < static_cast<int>(runs.size())) {
      handedOut[next] = 1;
      out.push_back(runs[next++]);
    }
    return out;
  }
  // A result for a run that was handed out and has none yet (else InputError naming the run).
  void accept(const Result& r) {
    if (r.id < 0 || r.id >= static_cast<int>(runs.size()) || !handedOut[r.id])
      throw InputError("result for run " + std::to_string(r.id) + ": no such run was handed out");
    if (received[r.id])
      throw InputError("result for run " + std::to_string(r.id) + " submitted twice");
    received[r.id] = 1;
    results[r.id] = r;
    ++submitted;
  }
  bool done() const { return submitted == static_cast<int>(runs.size()); }
  int inFlight() const { return next - submitted; }
  // what: "the ladder's table" etc.
  void requireDone(const std::string& what) const {
    if (!done()) throw InputError(what + " is not ready: runs are still to come");
  }
};

}  // namespace attnsvm::experiment_detail
