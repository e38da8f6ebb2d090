// Generalized SVM (SPEC section 3) for nonlinear heads, where GD keeps a *set* of tokens O_i:
//   W_dir: min ||W||  s.t. (x_it - x_iu)^T W z_i = 0  for t, u in O_i        (equalities)
//                          (x_it - x_iu)^T W z_i >= 1 for t in O_i, u not in O_i
//   W_fin: the minimum-Frobenius-norm W with (x_iu - x_it)^T W z_i = log(s_iu / s_it), t, u in O_i
//   GD's iterate is predicted as W_fin + R W_dir with R fitted by least squares.
// Equalities are written against the first token t0 of O_i only (the others follow by
// differences), so that the constraint set has no redundant rows.
#include <cmath>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "base/svd.hpp"
#include "cold.hpp"
#include "solvers/solvers_internal.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm {
  GeneralizedSvm generalizedSvm(const Dataset& data, const Mat& softmax, double threshold,
                                const SolverSettings& settings) {
    const AttentionKind kind = data.Z.rows() > 0 ? AttentionKind::Cross : AttentionKind::Self;
    // Shape / finiteness checks of X, Z, query through the standard builder.
    (void)attentionSvmProblem(data, kind,
                              std::vector<int>(static_cast<std::size_t>(std::max(data.n, 0)), 0));
    if (softmax.rows() != data.n || softmax.cols() != data.T)
      throw InputError("softmax has shape " + std::to_string(softmax.rows()) + " x " +
                       std::to_string(softmax.cols()) + ", expected n x T = " +
                       std::to_string(data.n) + " x " + std::to_string(data.T));
    if (!(threshold > 0.0 && threshold < 1.0))
      throw InputError("threshold = " + std::to_string(threshold) + " must be in (0, 1)");
    for (int i = 0; i < data.n; ++i)
      for (int t = 0; t < data.T; ++t)
        if (!std::isfinite(softmax(i, t)) || softmax(i, t) < 0.0)
          throw InputError("softmax[" + std::to_string(i) + "][" + std::to_string(t) +
                           "] must be a finite probability");

    GeneralizedSvm g;
    g.selectedSets.resize(static_cast<std::size_t>(data.n));
    const int d = data.d;
    MarginProblem dir, fin;
    dir.rows = fin.rows = d;
    dir.cols = fin.cols = d;
    std::vector<Vec> U, Wv, Uf, Wf;
    std::vector<double> b, bf;
    for (int i = 0; i < data.n; ++i) {
      std::vector<int>& O = g.selectedSets[static_cast<std::size_t>(i)];
      for (int t = 0; t < data.T; ++t)
        if (softmax(i, t) >= threshold) O.push_back(t);
      if (O.empty()) {  // keep at least the most probable token
        Index best = 0;
        softmax.row(i).maxCoeff(&best);
        O.push_back(static_cast<int>(best));
      }
      const Vec z = kind == AttentionKind::Cross ? Vec(data.Z.row(i).transpose())
                                                 : Vec(data.token(i, data.query).transpose());
      std::vector<char> inO(static_cast<std::size_t>(data.T), 0);
      for (int t : O) inO[static_cast<std::size_t>(t)] = 1;
      const int t0 = O.front();
      for (std::size_t k = 1; k < O.size(); ++k) {
        const int u = O[k];
        U.push_back((data.token(i, t0) - data.token(i, u)).transpose());
        Wv.push_back(z);
        b.push_back(0.0);
        dir.equality.push_back(true);
        dir.label.push_back({i, -1, u, t0, t0});
        // Finite part: (x_iu - x_it0)^T W z_i = log(s_iu / s_it0).
        Uf.push_back((data.token(i, u) - data.token(i, t0)).transpose());
        Wf.push_back(z);
        bf.push_back(std::log(std::max(softmax(i, u), 1e-300) / std::max(softmax(i, t0), 1e-300)));
        fin.label.push_back({i, -1, u, t0, t0});
      }
      for (int t : O)
        for (int u = 0; u < data.T; ++u) {
          if (inO[static_cast<std::size_t>(u)]) continue;
          U.push_back((data.token(i, t) - data.token(i, u)).transpose());
          Wv.push_back(z);
          b.push_back(1.0);
          dir.equality.push_back(false);
          dir.label.push_back({i, -1, u, t, t});
        }
    }
    auto pack = [d](MarginProblem& pb, const std::vector<Vec>& u, const std::vector<Vec>& w,
                    const std::vector<double>& rhs) {
      const Index m = static_cast<Index>(u.size());
      pb.U.resize(m, d);
      pb.Wq.resize(m, d);
      pb.b.resize(m);
      for (Index j = 0; j < m; ++j) {
        pb.U.row(j) = u[static_cast<std::size_t>(j)].transpose();
        pb.Wq.row(j) = w[static_cast<std::size_t>(j)].transpose();
        pb.b(j) = rhs[static_cast<std::size_t>(j)];
      }
    };
    pack(dir, U, Wv, b);
    pack(fin, Uf, Wf, bf);

    g.direction = solveMargin(dir, settings);

    // Finite part: minimum-norm least-squares solution of A vec(W) = c (rows vec(u_j w_j^T)).
    const Index mf = fin.b.size();
    if (mf == 0) {
      g.finite = Mat::Zero(d, d);
    } else {
      Mat A(mf, static_cast<Index>(d) * d);
      for (Index j = 0; j < mf; ++j) {
        const Mat Aj = fin.U.row(j).transpose() * fin.Wq.row(j);
        A.row(j) = Eigen::Map<const Vec>(Aj.data(), Aj.size()).transpose();
      }
      const Vec x = detail::MinNormSolver(A).solve(fin.b);
      g.finite = Eigen::Map<const Mat>(x.data(), d, d);
    }
    return g;
  }

  double fitRadius(const GeneralizedSvm& g, const Mat& W) {
    const Mat& D = g.direction.W;
    if (D.size() == 0 || W.rows() != D.rows() || W.cols() != D.cols())
      throw InputError("fitRadius: W has shape " + std::to_string(W.rows()) + " x " +
                       std::to_string(W.cols()) + ", expected the shape of W_dir " +
                       std::to_string(D.rows()) + " x " + std::to_string(D.cols()));
    const double dd = D.squaredNorm();
    if (dd == 0.0) return 0.0;
    const Mat F = g.finite.size() == W.size() ? g.finite : Mat::Zero(W.rows(), W.cols());
    return (W - F).cwiseProduct(D).sum() / dd;
  }

}  // namespace attnsvm
ATTNSVM_COLD_END
