// The reg-path experiment's figure (SPEC 5.3, docs/RESULTS.md "Regularization path"): per ball,
// 1 - corr of W(R) with its own norm's Att-SVM against R (log axes; the median and 10-90 % of the
// seeds, bands.js), the Frobenius and the nuclear ball against every norm's SVM (the theorem: each
// ball's own norm lowest), the rank of W(R) and the share of seeds whose path selection is globally
// optimal (linear, mean ± std). The series are the engine's (experiment_reg_path.cpp): "fro/
// oneMinusCorr/nuclear" = ball, metric, SVM; "radius" = the schedule.
import { drawBands } from './bands.js';
import { columnName } from './metrics.js';

export const REG_PATH_BALLS = ['fro', 'nuclear', 'p1.75', 'p3'];
const LABEL = { fro: 'Frobenius', nuclear: 'nuclear', 'p1.75': 'l_1.75', p3: 'l_3' };

// box(title) -> a holder; r: the (one) setting's aggregate over seeds.
export function drawRegPath(box, r) {
  const R = r.series.radius?.mean ?? r.iteration;
  const seeds = r.seeds?.length ?? r.count;
  const pick = (name, label) => (r.series[name] ? { label, ...r.series[name] } : null);
  const own = REG_PATH_BALLS.map((b) => pick(columnName(b, 'oneMinusCorr', b), `${LABEL[b]} ball`)).filter(Boolean);
  drawBands(box(`1 − corr(W(R), Att-SVM of its own norm) against the radius R, per ball (median, 10–90 % of ${seeds} seeds)`),
    R, own, { x: { log: true, label: 'radius R' }, y: { label: '1 − corr, own norm', log: true } });
  for (const ball of ['fro', 'nuclear']) {
    const all = REG_PATH_BALLS.map((svm) => pick(columnName(ball, 'oneMinusCorr', svm), `${LABEL[svm]} SVM`)).filter(Boolean);
    drawBands(box(`${LABEL[ball]} ball: 1 − corr(W(R), each norm's Att-SVM of W(R)'s selection) (median, 10–90 %)`),
      R, all, { x: { log: true, label: 'radius R' }, y: { label: '1 − corr', log: true } });
  }
  drawBands(box('rank of W(R) (singular values > 1e-7 of the largest; mean ± std over seeds)'),
    R, REG_PATH_BALLS.map((b) => pick(columnName(b, 'rank'), `${LABEL[b]} ball`)).filter(Boolean),
    { x: { log: true, label: 'radius R' }, y: { label: 'rank', log: false } });
  // (a share of 0/1 outcomes: the mean alone; its std would draw a band outside [0, 1])
  const share = (b) => { const c = pick(columnName(b, 'global'), `${LABEL[b]} ball`); return c && { ...c, std: Array.from(c.mean, () => 0) }; };
  drawBands(box('share of seeds whose path selection at R is globally optimal (no band: a share of 0/1 outcomes)'),
    R, REG_PATH_BALLS.map(share).filter(Boolean), { x: { log: true, label: 'radius R' }, y: { label: 'share', log: false } });
}
