// Small dense linear algebra for display only (d <= 24): norms, correlations, projections and
// singular values. All heavy computation happens in the engine's worker; these are O(d^3) at most.

export const fro = (A) => Math.sqrt(A.reduce((s, r) => s + r.reduce((t, x) => t + x * x, 0), 0));
export const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
export const norm = (a) => Math.sqrt(dot(a, a));
export const matVec = (A, x) => A.map((row) => dot(row, x));
export const transpose = (A) => A[0].map((_, j) => A.map((r) => r[j]));

export function inner(A, B) {
  let s = 0;
  for (let i = 0; i < A.length; i++) for (let j = 0; j < A[i].length; j++) s += A[i][j] * B[i][j];
  return s;
}

// corr(A, B) = <A, B> / (||A||_F ||B||_F); null when undefined (a zero matrix).
export function corr(A, B) {
  if (!A || !B || A.length !== B.length || A[0].length !== B[0].length) return null;
  const na = fro(A), nb = fro(B);
  if (!(na > 0) || !(nb > 0)) return null;
  const c = inner(A, B) / (na * nb);
  return Number.isFinite(c) ? Math.max(-1, Math.min(1, c)) : null;
}

// The mirror-descent paper's Bregman divergence between directions (SPEC section 4; the core's
// directionDivergence): D_p(A/||A||_p, B/||B||_p) with psi = (1/p)||.||_p^p entrywise, A the SVM and
// B the iterate; >= 0, 0 iff the directions agree. null when undefined (a zero matrix, p <= 1).
export function divergence(A, B, p) {
  if (!A || !B || A.length !== B.length || A[0].length !== B[0].length || !(p > 1)) return null;
  const lp = (M) => Math.pow(M.reduce((s, r) => s + r.reduce((t, x) => t + Math.pow(Math.abs(x), p), 0), 0), 1 / p);
  const na = lp(A), nb = lp(B);
  if (!(na > 0) || !(nb > 0) || !Number.isFinite(na) || !Number.isFinite(nb)) return null;
  let psiA = 0, psiB = 0, cross = 0;
  for (let i = 0; i < A.length; i++) {
    for (let j = 0; j < A[i].length; j++) {
      const x = A[i][j] / na, y = B[i][j] / nb, ay = Math.abs(y);
      const gy = Math.sign(y) * Math.pow(ay, p - 1);
      psiA += Math.pow(Math.abs(x), p);
      psiB += ay * Math.abs(gy);
      cross += gy * x;
    }
  }
  const d = psiA / p + (p - 1) / p * psiB - cross;
  return Number.isFinite(d) ? Math.max(0, d) : null;
}

export function allFinite(x) {
  if (typeof x === 'number') return Number.isFinite(x);
  if (x == null) return true;
  if (ArrayBuffer.isView(x)) { for (const v of x) if (!Number.isFinite(v)) return false; return true; }
  if (Array.isArray(x)) return x.every(allFinite);
  return true;
}

// Eigen-decomposition of a symmetric matrix by cyclic Jacobi: { values (descending), vectors (columns) }.
export function symEig(S) {
  const n = S.length;
  const A = S.map((r) => r.slice());
  const V = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) off += A[i][j] * A[i][j];
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(A[p][q]) < 1e-300) continue;
        const theta = (A[q][q] - A[p][p]) / (2 * A[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = A[k][p], akq = A[k][q];
          A[k][p] = c * akp - s * akq; A[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = A[p][k], aqk = A[q][k];
          A[p][k] = c * apk - s * aqk; A[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = V[k][p], vkq = V[k][q];
          V[k][p] = c * vkp - s * vkq; V[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = A.map((r, i) => [r[i], i]).sort((a, b) => b[0] - a[0]);
  return { values: order.map(([v]) => v), vectors: order.map(([, i]) => V.map((r) => r[i])) };
}

// Singular values of A (descending).
export function singularValues(A) {
  const At = transpose(A);
  const small = A.length <= At.length ? A : At;     // r x c with r <= c: eig of small small^T
  const G = small.map((ri) => small.map((rj) => dot(ri, rj)));
  return symEig(G).values.map((v) => Math.sqrt(Math.max(0, v)));
}

// Top-2 principal directions of a set of points (rows), with the explained variance fractions.
export function principalPlane(points) {
  const d = points[0].length;
  const mean = Array(d).fill(0);
  for (const p of points) for (let k = 0; k < d; k++) mean[k] += p[k] / points.length;
  const S = Array.from({ length: d }, () => Array(d).fill(0));
  for (const p of points) for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) S[a][b] += (p[a] - mean[a]) * (p[b] - mean[b]);
  const { values, vectors } = symEig(S);
  const total = values.reduce((s, v) => s + Math.max(0, v), 0) || 1;
  // a deterministic sign: the largest entry of each direction is positive
  const axes = vectors.slice(0, 2).map((u) => {
    const k = u.reduce((best, x, i) => (Math.abs(x) > Math.abs(u[best]) ? i : best), 0);
    return u[k] < 0 ? u.map((x) => -x) : u;
  });
  return { axes, explained: values.slice(0, 2).map((v) => Math.max(0, v) / total) };
}
