// The real-images panels in words: what each shows now (the text alternatives of the lab's view and
// of the embedded figure, access/figure-access.js). Pure: reads the session (session.js), no DOM.
import { CLASS_NAMES } from './asset.js';
import { pct, num } from './panels.js';

const lastOf = (run) => run.last ?? {};
const perRun = (session, f) => session.runs.map((r) => `${r.label}: ${f(lastOf(r), r)}`).join('; ');

export function realFigureText(id, session) {
  const st = session.status();
  const when = `k = ${st.iteration} of ${st.maxIterations}`;
  const { classA, classB } = session.settings;
  switch (id) {
    case 'gallery': {
      const run = session.runs[0];
      const labels = run.info?.testLabels;
      const correct = run.output && labels
        ? session.gallery.filter((idx, j) => (run.output[j] > 0) === (labels[idx] === classA)).length : null;
      return `${session.gallery.length} test images of ${CLASS_NAMES[classA]} and ${CLASS_NAMES[classB]} with the attention of the current W over their 7 x 7 patches (${run.label}, ${when})` +
        (correct === null ? '.' : `: ${correct} of ${session.gallery.length} classified correctly.`);
    }
    case 'detail': return `The selected image's softmax over its patches at ${when}.`;
    case 'summary': return `At ${when}: ${perRun(session, (l) => `test accuracy ${pct(l.testAccuracy)}, sparsity ${pct(l.sparsity)}`)}.`;
    case 'accuracy': return `Accuracy over iterations; at ${when}: ${perRun(session, (l) => `test ${pct(l.testAccuracy)}, train ${pct(l.trainAccuracy)}`)}.`;
    case 'loss': return `Logistic loss over iterations (log scale); at ${when}: ${perRun(session, (l) => `test ${num(l.testLoss)}, train ${num(l.trainLoss)}`)}.`;
    case 'sharpness': return `Mean largest softmax probability on the test images; at ${when}: ${perRun(session, (l) => num(l.testMaxSoftmax))}.`;
    case 'sparsity': return `Share of the entries of W below 1% of the largest; at ${when}: ${perRun(session, (l) => pct(l.sparsity))}.`;
    case 'hist': return `Histogram of |W_jk| / max |W_jk| at ${when}; share below 1% of the largest: ${perRun(session, (l) => pct(l.sparsity))}.`;
    case 'weights': return `W / max |W_jk| (18 x 18: 16 pixels, then the patch's row and column) at ${when}, one grid per run: ${session.runs.map((r) => r.label).join(', ')}.`;
    default: return '';
  }
}
