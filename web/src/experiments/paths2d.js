// The paths2d / paths2d-t5 experiments' figure: for W and for (K,Q), the token plane (plots/
// tokenplane.js) with the path of W(k) z_i of each sequence (divided by its largest norm, as the
// lab's scenario view does), the Frobenius and nuclear SVM directions W^mm z_i (unit arrows) and
// each sequence's margin line of the Frobenius SVM, {x : x.u = x_sel.u - 1} with u = W^mm z_i (the
// separating hyperplanes of the papers' T = 5 figure).
// r: the aggregated result of experimentSeeds('paths2d' | 'paths2d-t5') (one seed).
import { createTokenPlane } from '../plots/tokenplane.js';
import { unit, finalOf, planeTokens, normalizedPaths } from './token-paths.js';
import { columnName, indexedName } from './metrics.js';

export function drawPaths2d(box, r) {
  const { n } = r;
  const v = finalOf(r);
  const tokens = planeTokens(r);
  for (const P of ['W', 'KQ']) {
    const holder = box(`${P === 'W' ? 'W' : '(K,Q)'}: paths of W(k) z_i / max‖W(k) z_i‖ and the SVM directions W^mm z_i ` +
      `(corr with Frobenius ${v(columnName(P, 'corrFro')).toFixed(4)}, nuclear ${v(columnName(P, 'corrNuclear')).toFixed(4)})`);
    const paths = normalizedPaths(r, P);
    // W^mm z_i of the SVM `ref`: the columns "W/fro/Wmmz[i][0]", "W/fro/Wmmz[i][1]"
    const svmWz = (ref, i) => [0, 1].map((a) => v(columnName(P, ref, indexedName('Wmmz', i, a))));
    const arrows = ['fro', 'nuclear'].flatMap((ref) => Array.from({ length: n }, (_, i) => ({
      seq: i, ref, to: unit(svmWz(ref, i)) })))
      .filter((a) => a.to.every(Number.isFinite));
    const selected = r.selections[P]?.[0] ?? [];
    const lines = [];
    selected.forEach((t, i) => {
      const u = svmWz('fro', i);
      if (u.every(Number.isFinite) && t >= 0) lines.push({ seq: i, normal: u, offset: tokens[i][t][0] * u[0] + tokens[i][t][1] * u[1] - 1 });
    });
    createTokenPlane(holder).update({ tokens, paths, arrows, lines, selected, xlabel: 'x₁', ylabel: 'x₂', draggable: false,
      domainKey: P });
  }
}
