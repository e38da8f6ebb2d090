// The embed's current-softmax panel keeps its drawing's height from the first paint (layout shift):
// figure.css sizes its body from --current-rows x --current-cols cells, as lab.css does for the lab
// (prepaint.js). The rows: the scenario's n sequences, or n T (sequence, query) units for attention
// with a query per token (seq2seq, causal: n T x T matrices); the state's n, T and attention
// replace the scenario's; items: how many matrices (one, or a T x T block per sequence, side by
// side: figure.css). Unknown for other data (another generator, custom tokens, a prompt, a
// variant): the panel keeps its default height until drawn.
import { SCENARIO_INFO } from '../lab/scenarios.js';
import { PER_QUERY_ATTENTION } from '../lab/reference-requests.js';

export function currentShape(state) {
  const shape = SCENARIO_INFO[state.scenario]?.shape;
  if (!shape || state.generator !== 'scenario' || state.data || state.param || state.variant != null || state.localCase != null) return null;
  const n = state.n ?? shape.n, T = state.T ?? shape.T;
  const attention = state.attention ?? shape.attention ?? 'cross';
  const perQuery = PER_QUERY_ATTENTION.includes(attention);
  return { rows: perQuery ? n * T : n, cols: T, items: perQuery ? n : 1 };
}

export function reserveCurrent(body, state) {
  const s = body && currentShape(state);
  if (!s) return;
  body.style.setProperty('--current-rows', s.rows);
  body.style.setProperty('--current-cols', s.cols);
  body.style.setProperty('--current-items', s.items);
}
