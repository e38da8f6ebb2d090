// Conversions between the API's plain JSON shapes (nested number[][], see attnsvm.d.ts) and the
// "wire" objects the wasm bindings read (flat row-major Float64Array / Int32Array, see
// wasm/convert.hpp). Flattening happens here, once per call, so that every array crosses into
// wasm in one bulk copy. Structural problems (ragged arrays, wrong types) are reported here with
// the field and index; value problems (NaN, zero queries, out-of-range alpha) by the core.

export class AttnsvmError extends Error {
  constructor(message, kind = 'input') {
    super(message);
    this.name = 'AttnsvmError';
    this.kind = kind; // 'input' | 'numerical' | 'internal' | 'state'
  }
}

// A binding's status object -> itself, or the AttnsvmError it carries (every entry point of the
// bindings returns {ok, error, kind, ...} instead of throwing across the wasm boundary).
export function unwrap(status) {
  if (!status.ok) throw new AttnsvmError(status.error, status.kind);
  return status;
}

const fail = (message) => { throw new AttnsvmError(message, 'input'); };
const isArrayLike = (a) => Array.isArray(a) || ArrayBuffer.isView(a);

// number[] (or a typed array) -> Float64Array; `what` names the field in messages.
export function toF64(a, what) {
  if (a instanceof Float64Array) return a;
  if (!isArrayLike(a)) fail(`${what} must be an array of numbers`);
  return Float64Array.from(a, (x, i) => {
    if (typeof x !== 'number') fail(`${what}[${i}] is not a number (${JSON.stringify(x)})`);
    return x;
  });
}

export function toI32(a, what) {
  if (a instanceof Int32Array) return a;
  if (!isArrayLike(a)) fail(`${what} must be an array of integers`);
  return Int32Array.from(a, (x, i) => {
    if (!Number.isInteger(x)) fail(`${what}[${i}] = ${JSON.stringify(x)} is not an integer`);
    return x;
  });
}

// number[][] (rows) -> {rows, cols, data} row-major. Also accepts a wire matrix unchanged.
export function toWireMatrix(m, what) {
  if (m && typeof m === 'object' && !Array.isArray(m) && 'rows' in m && 'data' in m) {
    return { rows: m.rows, cols: m.cols, data: toF64(m.data, `${what}.data`) };
  }
  if (!Array.isArray(m)) fail(`${what} must be a matrix (an array of rows)`);
  const rows = m.length;
  const cols = rows ? (isArrayLike(m[0]) ? m[0].length : -1) : 0;
  if (cols < 0) fail(`${what}[0] must be an array (a row)`);
  const data = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const row = m[r];
    if (!isArrayLike(row)) fail(`${what}[${r}] must be an array (a row)`);
    if (row.length !== cols) fail(`${what}[${r}] has ${row.length} entries, expected ${cols} (as ${what}[0])`);
    for (let c = 0; c < cols; c++) {
      const x = row[c];
      if (typeof x !== 'number') fail(`${what}[${r}][${c}] is not a number (${JSON.stringify(x)})`);
      data[r * cols + c] = x;
    }
  }
  return { rows, cols, data };
}

// {rows, cols, data} -> number[][]
export function fromWireMatrix(w) {
  const out = new Array(w.rows);
  for (let r = 0; r < w.rows; r++) out[r] = toArray(w.data.subarray(r * w.cols, (r + 1) * w.cols));
  return out;
}

// Typed array -> number[]. Array.from(typedArray) goes through the iterator protocol (~8x slower than
// this loop in node 20 at 48,000 entries: 12-19 ms against 1.6-2 ms, the Farkas certificate and the
// multipliers of an n = 1000 real-image solve).
export function toArray(a) {
  const out = new Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i];
  return out;
}

// CSR {offsets, values} -> number[][]
export function fromRagged(w) {
  const out = [];
  for (let i = 0; i + 1 < w.offsets.length; i++) out.push(toArray(w.values.subarray(w.offsets[i], w.offsets[i + 1])));
  return out;
}

// Int32Array [a0, b0, a1, b1, ...] -> [[a0, b0], [a1, b1], ...]
export function fromPairs(a) {
  const out = [];
  for (let j = 0; j + 1 < a.length; j += 2) out.push([a[j], a[j + 1]]);
  return out;
}

// DatasetJSON -> wire dataset. X is n x T x d nested arrays (or, for callers that already hold flat
// data, a Float64Array with explicit n, T, d fields). Keys other than the dataset's fields pass
// through unchanged: the core reads the dataset through its field list and names an unknown key.
export function toWireDataset(ds) {
  if (!ds || typeof ds !== 'object') fail('dataset must be an object with X, Y, v (and Z for cross-attention)');
  let n, T, d, X;
  const { n: _n, T: _T, d: _d, ...rest } = ds;
  const wire = ArrayBuffer.isView(ds.X) ? rest : { ...ds };
  if (ArrayBuffer.isView(ds.X)) {
    ({ n, T, d } = ds);
    X = toF64(ds.X, 'X');
  } else {
    if (!Array.isArray(ds.X)) fail('X must be an array of sequences (n x T x d)');
    n = ds.X.length;
    T = n ? (Array.isArray(ds.X[0]) ? ds.X[0].length : fail('X[0] must be an array of tokens')) : 0;
    d = T ? (isArrayLike(ds.X[0][0]) ? ds.X[0][0].length : fail('X[0][0] must be an array of coordinates')) : 0;
    X = new Float64Array(n * T * d);
    for (let i = 0; i < n; i++) {
      const seq = ds.X[i];
      if (!Array.isArray(seq)) fail(`X[${i}] must be an array of tokens`);
      if (seq.length !== T) fail(`X[${i}] has ${seq.length} tokens, expected T = ${T} (as X[0])`);
      for (let t = 0; t < T; t++) {
        const tok = seq[t];
        if (!isArrayLike(tok)) fail(`X[${i}][${t}] must be an array of coordinates`);
        if (tok.length !== d) fail(`X[${i}][${t}] has ${tok.length} coordinates, expected d = ${d} (as X[0][0])`);
        for (let k = 0; k < d; k++) {
          const x = tok[k];
          if (typeof x !== 'number') fail(`X[${i}][${t}][${k}] is not a number (${JSON.stringify(x)})`);
          X[(i * T + t) * d + k] = x;
        }
      }
    }
  }
  wire.X = { n, T, d, data: X };
  if (ds.Z != null) {
    const Z = ArrayBuffer.isView(ds.Z) ? { rows: n, cols: d, data: toF64(ds.Z, 'Z') } : toWireMatrix(ds.Z, 'Z');
    if (!ArrayBuffer.isView(ds.Z) && Z.rows !== n) fail(`Z has ${Z.rows} rows, expected n = ${n} (one query per sequence)`);
    if (!ArrayBuffer.isView(ds.Z) && n && Z.cols !== d) fail(`Z[0] has ${Z.cols} coordinates, expected d = ${d}`);
    wire.Z = Z;
  }
  if (ds.Y == null) fail('Y (one label per sequence) is missing');
  if (ds.v == null) fail('v (the linear head, d numbers) is missing');
  wire.Y = toF64(ds.Y, 'Y');
  wire.v = toF64(ds.v, 'v');
  if (ds.alpha != null) wire.alpha = toI32(ds.alpha, 'alpha');
  return wire;
}

// wire dataset -> DatasetJSON (nested arrays). The core decides which fields the wire carries (Z only
// for cross attention, query only for self attention: attnsvm/vocab/fields.hpp).
export function fromWireDataset(w) {
  const { n, T, d, data } = w.X;
  const X = [];
  for (let i = 0; i < n; i++) {
    const seq = [];
    for (let t = 0; t < T; t++) seq.push(toArray(data.subarray((i * T + t) * d, (i * T + t + 1) * d)));
    X.push(seq);
  }
  const ds = { X };
  if (w.Z) ds.Z = fromWireMatrix(w.Z);
  if (w.query !== undefined) ds.query = w.query;
  ds.Y = toArray(w.Y);
  ds.v = toArray(w.v);
  if (w.alpha) ds.alpha = toArray(w.alpha);
  return ds;
}

export function toWireModel(m) {
  if (m == null) return undefined;
  const out = { ...m };
  if (m.Wk != null) out.Wk = toWireMatrix(m.Wk, 'model.Wk');
  if (m.V != null) out.V = toWireMatrix(m.V, 'model.V');
  return out;
}

export function fromWireModel(m) {
  const out = { ...m };
  if (m.Wk) out.Wk = fromWireMatrix(m.Wk);
  if (m.V) out.V = fromWireMatrix(m.V);
  return out;
}

export function toWireParams(p, what = 'params') {
  if (p == null) return undefined;
  const out = { ...p }; // other keys pass through: the core names them
  for (const k of ['W', 'K', 'Q']) if (p[k] != null) out[k] = toWireMatrix(p[k], `${what}.${k}`);
  for (const k of ['p', 'v']) if (p[k] != null) out[k] = toF64(p[k], `${what}.${k}`);
  return out;
}

export function fromWireParams(p) {
  const out = {};
  for (const k of ['W', 'K', 'Q']) if (p[k]) out[k] = fromWireMatrix(p[k]);
  for (const k of ['p', 'v']) if (p[k]) out[k] = toArray(p[k]);
  return out;
}

export function fromWireInit(w) {
  const out = { ...w };
  if (w.direction) out.direction = fromWireMatrix(w.direction);
  if (w.given) out.given = fromWireParams(w.given);
  return out;
}

export function toWireInit(init) {
  if (init == null) return undefined;
  const out = { ...init };
  if (init.direction != null) out.direction = toWireMatrix(init.direction, 'init.direction');
  if (init.given != null) out.given = toWireParams(init.given, 'init.given');
  return out;
}

export function fromWireSolution(s) {
  return {
    status: s.status,
    W: fromWireMatrix(s.W),
    lambda: toArray(s.lambda),
    objective: s.objective,
    lowerBound: s.lowerBound,
    gap: s.gap,
    maxViolation: s.maxViolation,
    support: fromPairs(s.support),
    supportQuery: toArray(s.supportQuery),
    supportIndex: toArray(s.supportIndex),
    iterations: s.iterations,
    seconds: s.seconds,
    message: s.message,
    constraints: s.constraints,
    ...(s.farkas ? { farkas: toArray(s.farkas) } : {}),
    ...(s.marginLower !== undefined ? { marginLower: s.marginLower, marginUpper: s.marginUpper } : {}),
  };
}

export function fromWireReport(r) {
  return {
    selection: toArray(r.selection),
    optimal: toArray(r.optimal),
    ties: fromRagged(r.ties),
    feasible: r.feasible,
    verdict: r.verdict,
    supportTokens: fromRagged(r.supportTokens),
    violators: fromPairs(r.violators),
    explanation: r.explanation,
    svm: fromWireSolution(r.svm),
  };
}

// An image set {rows, cols, pixels, labels} (an IDX file's images in file order) -> its wire form,
// the pixels a Uint8Array and the labels an Int32Array; `what` names it in the message.
export function toWireImageSet(s, what) {
  if (!s || typeof s !== 'object') fail(`${what} must be an image set {rows, cols, pixels, labels}`);
  return {
    rows: s.rows, cols: s.cols,
    pixels: s.pixels instanceof Uint8Array ? s.pixels : Uint8Array.from(s.pixels ?? []),
    labels: s.labels instanceof Int32Array ? s.labels : Int32Array.from(s.labels ?? []),
  };
}
