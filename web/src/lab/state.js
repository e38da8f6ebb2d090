// The lab's one typed state: a schema with defaults and validation, and its URL-hash codec.
// Every field has a short hash key. Only fields that differ from their default are written, so a
// link stays short; `null` means "the scenario's own value" for model/training overrides.
// decodeHash never throws: it returns { state, errors } where errors name the bad fields.
import { OPTIMIZER_NAMES } from './optimizers.js';
import { NORM_REFS, SCENARIO_ORDER } from './scenarios.js';

// The URL's scenario enum: the lab's scenarios (scenarios.js, one entry each), whose engine-run ones
// tests/browser/lab-scenarios.test.mjs checks against the engine's table (core scenarios.cpp).
export const SCENARIO_IDS = SCENARIO_ORDER;

const enumOf = (values, def, nullable = false) => ({ type: 'enum', values, def, nullable });
const int = (min, max, def, nullable = false) => ({ type: 'int', min, max, def, nullable });
const num = (min, max, def, nullable = false) => ({ type: 'num', min, max, def, nullable });
const bool = (def, nullable = false) => ({ type: 'bool', def, nullable });

// key in the hash -> field
export const SCHEMA = {
  scenario: { key: 's', ...enumOf(SCENARIO_IDS, 'paths2d') },
  // scenario options (null: the scenario's default)
  seed: { key: 'seed', ...int(0, 2 ** 31 - 1, 0) },
  n: { key: 'n', ...int(1, 30, null, true) },
  T: { key: 'T', ...int(2, 20, null, true) },
  d: { key: 'd', ...int(1, 24, null, true) },
  C: { key: 'C', ...num(-1000, 1000, null, true) },
  start: { key: 'start', ...int(0, 5, null, true) },
  localCase: { key: 'local', ...bool(null, true) },
  variant: { key: 'variant', ...int(0, 1, null, true) },
  // the data generator: the scenario's own, or the sphere generator with (n, T, d, seed)
  generator: { key: 'gen', ...enumOf(['scenario', 'sphere'], 'scenario') },
  // a custom dataset (dragged or edited tokens); null: the generator's data
  data: { key: 'data', type: 'dataset', def: null, nullable: true },
  // model overrides
  attention: { key: 'att', ...enumOf(['cross', 'self', 'seq2seq', 'causal'], null, true) },
  param: { key: 'param', ...enumOf(['W', 'KQ', 'prompt'], null, true) },
  head: { key: 'head', ...enumOf(['linear', 'relu'], null, true) },
  loss: { key: 'loss', ...enumOf(['logistic', 'exponential', 'correlation'], null, true) },
  // training overrides
  optimizer: { key: 'opt', ...enumOf(OPTIMIZER_NAMES, null, true) },
  lr: { key: 'lr', ...num(1e-6, 100, null, true) },
  p: { key: 'p', ...num(1.05, 10, null, true) },
  joint: { key: 'joint', ...bool(null, true) },
  headLr: { key: 'hlr', ...num(1e-6, 100, null, true) },
  iterations: { key: 'it', ...int(1, 20000, null, true) },
  // reference SVMs
  refs: { key: 'refs', type: 'set', values: NORM_REFS, def: null, nullable: true },
  svmP: { key: 'svmp', ...num(1.05, 10, null, true) },
  selection: { key: 'sel', ...enumOf(['auto', 'optimal'], 'auto') },
  // real images (web/src/real/, SPEC section 6): the class pair, the split sizes, compare p = 1.1, 2, 3
  classA: { key: 'ca', ...int(0, 9, null, true) },
  classB: { key: 'cb', ...int(0, 9, null, true) },
  nTrain: { key: 'ntr', ...int(2, 1000, null, true) },
  nTest: { key: 'nte', ...int(2, 1000, null, true) },
  compare: { key: 'cmp', ...bool(null, true) },
  // the real-images study and ladder (web/src/real/plan-*.js, SPEC 6.1-6.2): the study's seeds, the
  // ladder's largest n, and which of the two run as the page opens (run=study,ladder)
  studySeeds: { key: 'sseeds', ...int(2, 10, null, true) },
  ladderMax: { key: 'lmax', ...int(8, 1000, null, true) },
  realRun: { key: 'run', type: 'set', values: ['study', 'ladder', 'phase'], def: null, nullable: true },
  // real images: the token dimension d (SPEC 6.5: 18 = the patches; 32..512 seeded random ReLU features)
  tokenDim: { key: 'td', ...enumOf(['18', '32', '64', '128', '256', '512'], null, true) },
  // player: iterations per displayed frame
  speed: { key: 'speed', ...int(1, 1000, 5) },
  // the regularization path view (web/src/path/): opened by the link (view=path), at radius R
  // (kept when the scenario changes: keep)
  pathView: { key: 'view', ...enumOf(['path'], null, true), keep: true },
  pathR: { key: 'R', ...num(1, 1e4, null, true), keep: true },
};

export const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

export function defaultState() {
  const s = {};
  for (const [name, f] of Object.entries(SCHEMA)) s[name] = f.def;
  return s;
}

// Fields that belong to a scenario (reset when the scenario changes).
export const SCENARIO_BOUND = Object.keys(SCHEMA).filter((k) => !['scenario', 'speed', 'selection'].includes(k) && !SCHEMA[k].keep);

// Validates one value; returns { value } or { error }.
export function validateField(name, value) {
  const f = SCHEMA[name];
  if (!f) return { error: `unknown field "${name}"` };
  if (value === null || value === undefined) {
    return f.nullable || f.def === null ? { value: null } : { error: `${name} is required` };
  }
  switch (f.type) {
    case 'enum':
      return f.values.includes(value) ? { value }
        : { error: `${name} must be one of ${f.values.join(', ')} (got "${value}")` };
    case 'int': {
      const v = typeof value === 'string' ? Number(value) : value;
      if (!Number.isInteger(v)) return { error: `${name} must be an integer (got "${value}")` };
      if (v < f.min || v > f.max) return { error: `${name} must be in ${f.min}..${f.max} (got ${v})` };
      return { value: v };
    }
    case 'num': {
      const v = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof v !== 'number' || !Number.isFinite(v)) return { error: `${name} must be a finite number (got "${value}")` };
      if (v < f.min || v > f.max) return { error: `${name} must be in [${f.min}, ${f.max}] (got ${v})` };
      return { value: v };
    }
    case 'bool':
      if (value === true || value === '1' || value === 'true') return { value: true };
      if (value === false || value === '0' || value === 'false') return { value: false };
      return { error: `${name} must be 0 or 1 (got "${value}")` };
    case 'set': {
      const list = Array.isArray(value) ? value : String(value).split(',').filter(Boolean);
      const bad = list.filter((x) => !f.values.includes(x));
      if (bad.length) return { error: `${name}: unknown ${bad.join(', ')} (allowed: ${f.values.join(', ')})` };
      return { value: f.values.filter((x) => list.includes(x)) };
    }
    case 'dataset': {
      let obj = value;
      if (typeof value === 'string') {
        try { obj = JSON.parse(value); } catch (e) { return { error: `data is not valid JSON (${e.message})` }; }
      }
      const err = datasetShapeError(obj);
      return err ? { error: `data: ${err}` } : { value: obj };
    }
    default:
      return { error: `field ${name} has unknown type` };
  }
}

// Structural check of a dataset JSON (shapes and finiteness); the engine's validate() does the
// rest (zero-norm queries, labels, selection ranges) and names the offending entry.
export function datasetShapeError(ds) {
  if (!ds || typeof ds !== 'object' || Array.isArray(ds)) return 'must be an object with X, Y, v (and Z)';
  const { X, Z, Y, v, alpha } = ds;
  if (!Array.isArray(X) || X.length === 0) return 'X must be a non-empty array of sequences (n x T x d)';
  const T = Array.isArray(X[0]) ? X[0].length : 0;
  const d = T && Array.isArray(X[0][0]) ? X[0][0].length : 0;
  if (!T || !d) return 'X[0] must be a non-empty array of tokens, each a non-empty array of numbers';
  for (let i = 0; i < X.length; i++) {
    if (!Array.isArray(X[i]) || X[i].length !== T) return `X[${i}] must have ${T} tokens like X[0]`;
    for (let t = 0; t < T; t++) {
      const x = X[i][t];
      if (!Array.isArray(x) || x.length !== d) return `X[${i}][${t}] must have ${d} coordinates`;
      for (let k = 0; k < d; k++) if (typeof x[k] !== 'number' || !Number.isFinite(x[k])) return `X[${i}][${t}][${k}] is not a finite number`;
    }
  }
  const n = X.length;
  if (Z !== undefined && Z !== null) {
    if (!Array.isArray(Z) || Z.length !== n) return `Z must have ${n} rows (one query per sequence)`;
    for (let i = 0; i < n; i++) {
      if (!Array.isArray(Z[i]) || Z[i].length !== d) return `Z[${i}] must have ${d} coordinates`;
      for (let k = 0; k < d; k++) if (!Number.isFinite(Z[i][k])) return `Z[${i}][${k}] is not a finite number`;
    }
  }
  if (!Array.isArray(Y) || Y.length !== n) return `Y must have ${n} labels`;
  for (let i = 0; i < n; i++) if (Y[i] !== 1 && Y[i] !== -1) return `Y[${i}] must be +1 or -1 (got ${JSON.stringify(Y[i])})`;
  if (!Array.isArray(v) || v.length !== d) return `v must have ${d} coordinates`;
  for (let k = 0; k < d; k++) if (!Number.isFinite(v[k])) return `v[${k}] is not a finite number`;
  if (alpha !== undefined && alpha !== null) {
    if (!Array.isArray(alpha) || alpha.length !== n) return `alpha must have ${n} entries`;
    for (let i = 0; i < n; i++) if (!Number.isInteger(alpha[i]) || alpha[i] < 0 || alpha[i] >= T) return `alpha[${i}] = ${alpha[i]} is out of range 0..${T - 1}`;
  }
  if (ds.query !== undefined && (!Number.isInteger(ds.query) || ds.query < 0 || ds.query >= T)) return `query must be in 0..${T - 1}`;
  return null;
}

// Rounds a dataset's numbers for a compact, exactly reproducible link.
export function roundDataset(ds, digits = 4) {
  const r = (x) => Number(x.toFixed(digits));
  const out = { X: ds.X.map((seq) => seq.map((tok) => tok.map(r))), Y: ds.Y.slice(), v: ds.v.map(r) };
  if (ds.Z) out.Z = ds.Z.map((z) => z.map(r));
  if (ds.query !== undefined) out.query = ds.query;
  if (ds.alpha) out.alpha = ds.alpha.slice();
  return out;
}

function encodeValue(f, v) {
  if (f.type === 'bool') return v ? '1' : '0';
  if (f.type === 'set') return v.join(',');
  if (f.type === 'dataset') return JSON.stringify(v);
  return String(v);
}

function sameValue(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function encodeHash(state) {
  const params = new URLSearchParams();
  for (const [name, f] of Object.entries(SCHEMA)) {
    const v = state[name];
    if (name !== 'scenario' && (v === null || v === undefined || sameValue(v, f.def))) continue;
    params.set(f.key, encodeValue(f, v));
  }
  return '#' + params.toString();
}

// What a field accepts, in words (for the messages about a link: its author reads them).
export function acceptedValues(name) {
  const f = SCHEMA[name];
  switch (f?.type) {
    case 'enum': return f.values.join(', ');
    case 'int': return `an integer in ${f.min}..${f.max}`;
    case 'num': return `a number in [${f.min}, ${f.max}]`;
    case 'bool': return '0 or 1';
    case 'set': return `a comma-separated list of ${f.values.join(', ')}`;
    case 'dataset': return 'a dataset as JSON: {"X": n x T x d, "Y": n labels ±1, "v": d numbers, "Z"?: n x d}';
    default: return '';
  }
}

// The closest of `names` to a misspelled `word` (at most two edits away), or null.
export function closestName(word, names) {
  const dist = (a, b) => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0];
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const cur = row[j];
        row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
        prev = cur;
      }
    }
    return row[b.length];
  };
  let best = null, bestD = 3;
  for (const n of names) { const d = dist(word, n); if (d < bestD) { best = n; bestD = d; } }
  return best;
}

export const HASH_KEYS = Object.values(SCHEMA).map((f) => f.key);

// Returns { state, errors, problems }. Unknown keys and invalid values are reported and replaced by
// defaults: problems[] = { param, value, message, accepted } (param: the key as written in the link),
// errors[] = their messages. extraKeys: other keys the caller accepts (an embed's panels, caption,
// ...), listed among the accepted parameters of an unknown one.
export function decodeHash(hash, { extraKeys = [] } = {}) {
  const state = defaultState();
  const problems = [];
  const text = (hash || '').replace(/^#/, '');
  const result = () => ({ state, problems, errors: problems.map((p) => p.message) });
  if (!text) return result();
  let params;
  try {
    params = new URLSearchParams(text);
  } catch (e) {
    problems.push({ param: null, value: text, accepted: null, message: `the link's hash could not be read (${e.message})` });
    return result();
  }
  const byKey = Object.fromEntries(Object.entries(SCHEMA).map(([name, f]) => [f.key, name]));
  for (const [key, raw] of params) {
    const name = byKey[key];
    if (!name) {
      const keys = [...HASH_KEYS, ...extraKeys];
      const near = closestName(key, keys);
      problems.push({ param: key, value: raw, accepted: keys.join(', '),
        message: `unknown setting "${key}" in the link${near ? ` (did you mean "${near}"?)` : ''}` });
      continue;
    }
    const r = validateField(name, raw);
    if (r.error) problems.push({ param: key, value: raw, accepted: acceptedValues(name), message: r.error });
    else state[name] = r.value;
  }
  return result();
}

// Applies a partial update with validation. Returns { state, errors } (invalid fields untouched).
const GENERATOR_FIELDS = ['generator', 'seed', 'n', 'T', 'd', 'C', 'start', 'localCase', 'variant'];

export function updateState(state, patch) {
  const next = { ...state };
  const errors = [];
  if (patch.scenario && patch.scenario !== state.scenario) {
    for (const k of SCENARIO_BOUND) next[k] = SCHEMA[k].def;
  }
  // new generated data replaces custom tokens
  if (!('data' in patch) && GENERATOR_FIELDS.some((k) => k in patch && JSON.stringify(patch[k]) !== JSON.stringify(state[k]))) next.data = null;
  for (const [name, value] of Object.entries(patch)) {
    const r = validateField(name, value);
    if (r.error) errors.push(r.error);
    else next[name] = r.value;
  }
  return { state: next, errors };
}
