// An enum's wire names as a constant table: the canonical name first (what every writer prints),
// then accepted aliases. Each layer keeps the tables of the enums it declares beside them
// (solvers/wire_names.hpp, analysis/verdict_names.hpp), so that a layer names its values
// (toString, messages) without the vocabulary layer above it; attnsvm/vocab/names.hpp's wireName,
// parseWireName and wireNames read every table through these rows (core/src/vocab/names.cpp).
#pragma once

namespace attnsvm {

struct WireRow {
  int value;
  const char* names[3];  // canonical first; unused entries are null
};
struct WireTable {
  const WireRow* rows;
  int size;
};

// The canonical name of `value` (the first row's for a value the table lacks: unreachable for
// valid enum values).
inline const char* canonicalName(WireTable t, int value) {
  for (int r = 0; r < t.size; ++r)
    if (t.rows[r].value == value) return t.rows[r].names[0];
  return t.rows[0].names[0];
}

}  // namespace attnsvm
