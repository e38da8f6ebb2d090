// The data of one problem: n sequences of T tokens in R^d, one query per sequence (cross-attention)
// or a query index (self-attention), labels Y and a linear head v. See SPEC section 1.
#pragma once
#include <string>
#include <vector>

#include "attnsvm/base/types.hpp"

namespace attnsvm {

enum class AttentionKind {
  Cross,     // query z_i given (rows of Z)
  Self,      // one query per sequence: z_i = x_{i,query}
  SeqToSeq,  // every position k is a query: z = x_{ik}, attends to all tokens
  Causal     // every position k is a query, attends to tokens t <= k
};

struct Dataset {
  int n = 0, T = 0, d = 0;
  Mat X;                   // (n*T) x d; token (i, t) is row i*T + t
  Mat Z;                   // n x d cross-attention queries (rows); may be empty for self-attention
  int query = 0;           // self-attention query index
  Vec Y;                   // n labels (+1 / -1)
  Vec v;                   // d, linear head (the fixed head for token scores gamma)
  std::vector<int> alpha;  // optional selection, one token per sequence (empty: none given)

  auto tokens(int i) const { return X.middleRows(static_cast<Index>(i) * T, T); }
  auto token(int i, int t) const { return X.row(static_cast<Index>(i) * T + t); }
};

// The attention a dataset implies when none is named: cross when it has queries Z, else self (the
// CLI's files and the JS API's requests alike).
AttentionKind defaultAttention(const Dataset& data);

// Throws InputError naming the field and index ("X[3][5][1] is NaN", "Z row 2 has zero norm",
// "alpha[4] = 9 is out of range 0..7") when the data cannot be used with this attention kind.
void validate(const Dataset& data, AttentionKind kind);

// Token scores gamma_it = Y_i v^T x_it, as an n x T matrix.
Mat tokenScores(const Dataset& data);

// Optimal tokens opt_i = argmax_t gamma_it, and for each sequence the list of tokens tied with it
// (|gamma - max| <= tieTol * max(1, |max|)); ties[i] has size 1 when the optimum is strict.
struct OptimalTokens {
  std::vector<int> opt;
  std::vector<std::vector<int>> ties;
};
OptimalTokens optimalTokens(const Dataset& data, double tieTol = 1e-12);

// The selection used when none is given: the dataset's alpha if it has one (cross, self), else the
// optimal token of every unit: per sequence (cross, self: opt_i), or per (sequence, query k),
// i-major, for seq2seq (argmax over all t) and causal (argmax over t <= k). The CLI and the wasm
// API both use it.
std::vector<int> defaultSelection(const Dataset& data, AttentionKind kind);

}  // namespace attnsvm
