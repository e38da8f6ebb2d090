// Accumulates the frames a run streams (per-iteration trace fields) and one snapshot of the
// effective weights per received chunk (for paths, correlations and heatmaps). Correlations with
// the reference SVMs are computed here from the snapshots, so references can change (a new
// selection, a dragged token) and the whole curve is recomputed.
import { corr, divergence } from './linalg.js';

const headCorr = (snap, v) => (snap.v ? corr([Array.from(snap.v)], [v]) : null);
const headDiv = (snap, v, p) => (snap.v ? divergence([v], [Array.from(snap.v)], p) : null);

class Growable {
  constructor(Type) { this.Type = Type; this.buf = new Type(256); this.length = 0; }
  push(src) {
    const need = this.length + src.length;
    if (need > this.buf.length) {
      const b = new this.Type(Math.max(need, this.buf.length * 2));
      b.set(this.buf.subarray(0, this.length));
      this.buf = b;
    }
    this.buf.set(src, this.length);
    this.length = need;
  }
  view() { return this.buf.subarray(0, this.length); }
}

const MAX_SNAPSHOTS = 2000;

export class TraceStore {
  constructor() {
    this.units = 0; this.T = 0;
    this.iteration = new Growable(Int32Array);
    this.loss = new Growable(Float64Array);
    this.normFro = new Growable(Float64Array);
    this.normNuc = new Growable(Float64Array);
    this.normLp = new Growable(Float64Array);
    this.selected = new Growable(Int32Array);
    this.selectedProbability = new Growable(Float64Array);
    this.softmax = new Growable(Float64Array);
    this.snapshots = [];   // [{ iteration, W, v? }] (v: the head under joint training)
    this.refs = {};        // name -> matrix
    this.headRef = null;   // the head SVM's v^mm (joint training), compared with the snapshots' v
    this.corrCache = {};   // name -> number|null per snapshot
    this.divCache = {};    // name -> D_p(ref, W(k)) per snapshot (number|null), p = divP
    this.divP = 2;         // the trace p (the run's mirror-descent p, else 2)
    this.currentIteration = 0;
    this.initialW = null;
  }

  setInitial(W) { this.initialW = W; }

  ingest(frame) {
    this.units = frame.units; this.T = frame.T;
    if (frame.frames > 0) {
      this.iteration.push(frame.iteration);
      this.loss.push(frame.loss);
      this.normFro.push(frame.normFro);
      this.normNuc.push(frame.normNuc);
      this.normLp.push(frame.normLp);
      this.selected.push(frame.selected);
      this.selectedProbability.push(frame.selectedProbability);
      if (frame.softmax?.length) this.softmax.push(frame.softmax);
    }
    const it = frame.iterationNow ?? (frame.frames ? frame.iteration[frame.frames - 1] : this.currentIteration);
    this.currentIteration = it;
    // (a reply of many iterations brings the W of its pieces too: worker.js stepInPieces)
    for (const s of frame.snapshots ?? []) this.snapshot(s.iteration, s.weights, s.head);
    if (frame.weights) this.snapshot(it, frame.weights, frame.head);
  }

  snapshot(iteration, W, v) {
    if (this.snapshots.length && this.snapshots.at(-1).iteration === iteration) return;
    const snap = { iteration, W, ...(v ? { v } : {}) };
    this.snapshots.push(snap);
    for (const [name, R] of Object.entries(this.refs)) {
      this.corrCache[name].push(corr(W, R));
      this.divCache[name].push(divergence(R, W, this.divP));
    }
    if (this.headRef) {
      this.corrCache.head.push(headCorr(snap, this.headRef));
      this.divCache.head.push(headDiv(snap, this.headRef, this.divP));
    }
    if (this.snapshots.length > MAX_SNAPSHOTS) this.thin();
  }

  // Keeps memory bounded on long runs: drops every other snapshot (the first and the last stay).
  thin() {
    const keep = (_, k, arr) => k % 2 === 0 || k === arr.length - 1;
    this.snapshots = this.snapshots.filter(keep);
    for (const name of Object.keys(this.corrCache)) this.corrCache[name] = this.corrCache[name].filter(keep);
    for (const name of Object.keys(this.divCache)) this.divCache[name] = this.divCache[name].filter(keep);
  }

  // refs: name -> matrix (compared with W(k)); headRef: v^mm of the head SVM or null (compared
  // with v(k) under joint training, as the series "head").
  // divP: the p of the Bregman divergence curves (the trace p).
  setReferences(refs, headRef = null, divP = this.divP) {
    this.refs = refs;
    this.headRef = headRef ?? null;
    this.divP = divP > 1 ? divP : 2;
    this.corrCache = {};
    this.divCache = {};
    for (const [name, R] of Object.entries(refs)) {
      this.corrCache[name] = this.snapshots.map((s) => corr(s.W, R));
      this.divCache[name] = this.snapshots.map((s) => divergence(R, s.W, this.divP));
    }
    if (this.headRef) {
      this.corrCache.head = this.snapshots.map((s) => headCorr(s, this.headRef));
      this.divCache.head = this.snapshots.map((s) => headDiv(s, this.headRef, this.divP));
    }
  }

  // ||v(k)|| at the snapshots (joint training), or null.
  headNorms() {
    if (!this.snapshots.some((s) => s.v)) return null;
    return { x: this.snapshots.map((s) => s.iteration), y: this.snapshots.map((s) => (s.v ? Math.hypot(...s.v) : null)) };
  }

  frames() { return this.iteration.length; }
  iterationNow() { return this.currentIteration; }

  last() {
    const f = this.iteration.length;
    if (!f) return null;
    const u = this.units, T = this.T, k = f - 1;
    const sm = this.softmax.length >= f * u * T ? this.softmax.view().subarray(k * u * T, (k + 1) * u * T) : null;
    return {
      iteration: this.iteration.buf[k], loss: this.loss.buf[k], normFro: this.normFro.buf[k],
      selected: this.selected.view().subarray(k * u, (k + 1) * u),
      selectedProbability: this.selectedProbability.view().subarray(k * u, (k + 1) * u),
      softmax: sm,
    };
  }

  currentWeights() { return this.snapshots.at(-1)?.W ?? this.initialW; }

  series() {
    return { iteration: this.iteration.view(), loss: this.loss.view(), normFro: this.normFro.view(), normNuc: this.normNuc.view(), normLp: this.normLp.view() };
  }

  softmaxSeries() {
    const u = this.units, T = this.T;
    const f = u && T ? Math.min(this.frames(), Math.floor(this.softmax.length / (u * T))) : 0;
    return { iterations: this.iteration.view().subarray(0, f), values: this.softmax.view().subarray(0, f * u * T) };
  }

  corrSeries() {
    return { x: this.snapshots.map((s) => s.iteration), series: this.corrCache };
  }

  // D_p(ref, W(k)) per reference at the snapshots (same x as corrSeries), p = divP.
  divergenceSeries() {
    return { x: this.snapshots.map((s) => s.iteration), series: this.divCache, p: this.divP };
  }

  correlations() {
    const out = {};
    for (const [name, arr] of Object.entries(this.corrCache)) out[name] = arr.length ? arr.at(-1) : null;
    return out;
  }

  toCSV(refNames = Object.keys(this.corrCache)) {
    const u = this.units;
    // The trace's field names (docs/NAMES.md): per unit k `selected[k]`, per reference `corr/<name>`.
    const head = ['iteration', 'loss', 'normFro', 'normNuc', 'normLp',
      ...Array.from({ length: u }, (_, k) => `selected[${k}]`), ...Array.from({ length: u }, (_, k) => `selectedProbability[${k}]`),
      ...refNames.map((r) => `corr/${r}`)];
    const lines = [head.join(',')];
    // correlation per trace frame: the last snapshot at or before that iteration
    let s = 0;
    const snaps = this.snapshots;
    for (let f = 0; f < this.frames(); f++) {
      const it = this.iteration.buf[f];
      while (s + 1 < snaps.length && snaps[s + 1].iteration <= it) s++;
      const exact = snaps[s] && snaps[s].iteration === it;
      const row = [it, this.loss.buf[f], this.normFro.buf[f], this.normNuc.buf[f], this.normLp.buf[f],
        ...this.selected.buf.subarray(f * u, (f + 1) * u), ...this.selectedProbability.buf.subarray(f * u, (f + 1) * u),
        ...refNames.map((r) => (exact && this.corrCache[r]?.[s] != null ? this.corrCache[r][s] : ''))];
      lines.push(row.join(','));
    }
    return lines.join('\n') + '\n';
  }

  toJSON() {
    return {
      units: this.units, T: this.T,
      iteration: Array.from(this.iteration.view()), loss: Array.from(this.loss.view()),
      normFro: Array.from(this.normFro.view()), normNuc: Array.from(this.normNuc.view()), normLp: Array.from(this.normLp.view()),
      selected: Array.from(this.selected.view()), selectedProbability: Array.from(this.selectedProbability.view()),
      snapshots: this.snapshots.map((s) => ({ iteration: s.iteration, W: s.W })),
      correlations: Object.fromEntries(Object.entries(this.corrCache).map(([k, v]) => [k, v])),
    };
  }
}
