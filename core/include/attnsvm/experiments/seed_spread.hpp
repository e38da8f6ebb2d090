// The spread over seeds of an experiment's per-iteration series (docs/CLI.md, "Seed quantiles"):
// the mean and population std, which the papers shade (mean ± std: fine on a linear axis), and the
// median with the 10 % and 90 % quantiles, the band of a log axis. Why quantiles there: the seeds
// of a convergence curve spread over decades (a few converge much further than the rest), so the
// std exceeds the mean and mean − std <= 0, which a log axis cannot draw; a quantile of positive
// values is positive, and it is read on the same scale as the curve. Why 10-90 % and not the
// interquartile range: it shows where 80 % of the seeds are, the slow and the fast ones (the point
// of a seed band on a convergence plot), close to the ~68 % a mean ± std covers for normal data,
// while the IQR hides half of them. Why not the geometric mean × / ÷ the multiplicative std: one
// seed at exactly 0 (1 − corr = 0 in floating point) or below (rounding) has no logarithm, and a
// quantile needs none.
//
// One definition for the native CLI (its experiment JSON), the wasm module (seriesSpread, which the
// lab's experiment panel calls) and so for the page: the three draw the same band. A new seeded
// experiment gets every one of these numbers from seriesSpread (the CLI: SeriesBlock::add).
#pragma once
#include <cstddef>
#include <vector>

#include "attnsvm/vocab/fields.hpp"

namespace attnsvm {

// The band of a log axis: between these quantiles (80 % of the seeds), around the median.
inline constexpr double kSpreadLowerProb = 0.1, kSpreadUpperProb = 0.9;

// The quantile of type 7 (Hyndman & Fan 1996; R's default, numpy's "linear"; linear interpolation
// between order statistics) of `sorted` (ascending, finite, not empty) at prob in [0, 1]: with
// h = (n − 1) prob and j = floor(h) (0-based), x[j] + (h − j) (x[j + 1] − x[j]); x[j] exactly when
// h is an integer. Throws InputError on an empty list or prob outside [0, 1].
double quantileSorted(const std::vector<double>& sorted, double prob);

// The statistics of one column of values (one snapshot, one value a seed). Non-finite values (a
// seed whose metric is undefined there) are left out; NaN everywhere when none is finite. mean and
// std: summed in the values' order, std the population std sqrt(sum (x − mean)^2 / count), as the
// CLI has always written them.
struct SeedSpread {
  int count = 0;  // finite values
  double mean = 0, std = 0, median = 0, q10 = 0, q90 = 0;
};
// values[0], values[stride], ... (count of them). scratch: reused storage for the sort (no
// allocation per column when the caller keeps it).
SeedSpread seedSpread(const double* values, std::size_t count, std::size_t stride,
                      std::vector<double>& scratch);

// Per snapshot over runs: mean, std, median, q10, q90 of seedSpread (NaN where no run is finite).
struct SeriesSpread {
  std::vector<double> mean, std, median, q10, q90;
};
// Run k's series is perRun[k] (a shorter run counts as NaN past its end); `length` snapshots.
SeriesSpread seriesSpread(const std::vector<std::vector<double>>& perRun, std::size_t length);
// Runs stored one after the other: run k's value at snapshot i is values[k * length + i]; several
// series may follow each other (values.size() = series x runs x length): the result holds the
// series one after the other too (series x length).
SeriesSpread seriesSpread(const std::vector<double>& values, int runs, int length);

// Its field list (the visitor protocol of attnsvm/vocab/fields.hpp): mean, std, median, q10, q90.
// The CLI's series blocks and the wasm module's seriesSpread write these names.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, SeriesSpread> {
  v("mean", s.mean);
  v("std", s.std);
  v("median", s.median);
  v("q10", s.q10);
  v("q90", s.q90);
}

// The wasm module's request: values (runs x length per series, series after series), runs, length.
struct SeriesSpreadRequest {
  std::vector<double> values;
  int runs = 0;
  int length = 0;
};
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, SeriesSpreadRequest> {
  v("values", s.values);
  v("runs", s.runs);
  v("length", s.length);
}

}  // namespace attnsvm
