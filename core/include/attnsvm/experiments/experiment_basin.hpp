// Basin map (beyond the papers; issue 8): for the prompt-global-local scenario's local-case data,
// normalized GD on the prompt from every cell centre of a grid x grid slice p = (x, y, 0) over
// [-2, 2]^2 (Wk = diag(1, 1, 0) ignores p_2), and the token each start converges to. Row by row, so
// that the CLI's threads and the lab's workers split the grid the same way.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "attnsvm/model/model.hpp"
#include "attnsvm/vocab/fields.hpp"

namespace attnsvm {

constexpr double kBasinLo = -2.0, kBasinHi = 2.0;
// Centre of cell k of `grid` along either axis.
double basinCoord(int k, int grid);

struct BasinRow {
  std::vector<int> selection;  // per column: the selected token at the end (-1 if none)
  std::vector<Vec> finalP;     // per column: the final prompt
};
// Row `row` (y index) of the map; iters <= 0 means the scenario's (1000). Throws InputError on a
// bad grid (2..2000) or row.
BasinRow basinMapRow(std::uint64_t seed, int grid, int row, int iters);
// A request for rows rowStart .. rowStart + rowCount - 1 of a grid x grid map (the lab's workers
// split the map by rows; iters -1: the scenario's). The binding checks the rows against the grid.
struct BasinMapRequest {
  int grid = 200;
  int rowStart = 0;
  int rowCount = 1;
  int iters = -1;
  std::uint64_t seed = 0;
};

// Its field list (the visitor protocol of attnsvm/vocab/fields.hpp): grid, rowStart, rowCount,
// iters, seed.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, BasinMapRequest> {
  v("grid", s.grid);
  v("rowStart", s.rowStart);
  v("rowCount", s.rowCount);
  v("iters", s.iters, s.iters != -1);
  v("seed", s.seed);
}

// The prompt SVM direction (Frobenius) of a selected token of the local-case data; nullopt if
// infeasible.
std::optional<Mat> basinSvmDirection(std::uint64_t seed, int token);
// Whether the token is the globally optimal one of the data.
bool basinTokenIsGlobal(std::uint64_t seed, int token);

}  // namespace attnsvm
