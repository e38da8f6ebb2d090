// Basin map (beyond the papers; issue 8): for the prompt-global-local scenario's local-case data,
// normalized GD on the prompt from every cell centre of a grid x grid slice p = (x, y, 0) over
// [-2, 2]^2 (Wk = diag(1, 1, 0) ignores p_2), and the token each start converges to. Row by row, so
// that the CLI's threads and the lab's workers split the grid the same way.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "attnsvm/model.hpp"

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
// The prompt SVM direction (Frobenius) of a selected token of the local-case data; nullopt if
// infeasible.
std::optional<Mat> basinSvmDirection(std::uint64_t seed, int token);
// Whether the token is the globally optimal one of the data.
bool basinTokenIsGlobal(std::uint64_t seed, int token);

}  // namespace attnsvm
