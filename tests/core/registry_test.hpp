// What every registry of the core promises (optimizers, train/optimizers.hpp; norms,
// solvers/norms.hpp): its entries in the enum's order, each named as the wire vocabulary names it,
// its aliases resolving to it, and its lookup returning that very entry.
#pragma once
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "attnsvm/vocab/names.hpp"

namespace attnsvm::test {

template <class E, class Entry, class Lookup>
void expectNamedRegistry(const std::vector<Entry>& registry, Lookup lookup, const char* what) {
  ASSERT_EQ(registry.size(), wireNames<E>().size());
  for (std::size_t k = 0; k < registry.size(); ++k) {
    const Entry& info = registry[k];
    SCOPED_TRACE(info.names[0]);
    EXPECT_EQ(static_cast<std::size_t>(info.kind), k);
    EXPECT_STREQ(wireName(info.kind), info.names[0]);
    for (const char* alias : info.names) {
      if (alias) {
        EXPECT_EQ(parseWireName<E>(alias, what), info.kind);
      }
    }
    EXPECT_EQ(&lookup(info.kind), &info);
  }
}

}  // namespace attnsvm::test
