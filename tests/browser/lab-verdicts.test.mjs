// The readout's verdict (SPEC section 4: globally optimal, locally optimal, neither) with support
// tokens for every kind of scenario: prompts (the prompt SVM), sequence-to-sequence and causal
// attention (one verdict over all (sequence, query) units), besides cross attention. Read through
// the test hook (the engine's report) and checked against the readout's DOM.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser } from './harness.mjs';
import { openLab, runToEnd, serveLab } from './lab-helpers.mjs';

let site, browser;
before(async () => { site = await serveLab(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

const KIND = { globally_optimal: 'global', locally_optimal: 'local', neither: 'neither', infeasible: 'infeasible' };

async function finalVerdict(hash) {
  const { page, context, problems } = await openLab(browser, site.url, hash);
  await runToEnd(page);
  // panels off screen are not redrawn: bring the readout into view as a reader would
  await page.locator('#panel-readout').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('#body-readout .verdict')?.dataset.verdict === ({
    globally_optimal: 'global', locally_optimal: 'local', neither: 'neither', infeasible: 'infeasible' })[window.__lab.verdict()], null, { timeout: 5000 })
    .catch(() => {});   // the assertions below report a mismatch
  const r = await page.evaluate(() => ({
    verdict: window.__lab.verdict(), view: window.__lab.verdictView(), report: window.__lab.report(),
    selection: window.__lab.referenceSelection(), lastSelected: window.__lab.lastFrame.selected,
    dataset: window.__lab.dataset(), messages: window.__lab.messages(),
    dom: document.querySelector('#body-readout .verdict')?.dataset.verdict ?? null,
    units: [...document.querySelectorAll('#body-readout .seqs li')].map((li) => li.textContent),
  }));
  await context.close();
  return { ...r, problems };
}

function checkConsistent(r) {
  assert.ok(r.report && !r.report.error, `an analysis: ${JSON.stringify(r.report)}`);
  assert.equal(r.view.kind, KIND[r.verdict], 'the readout shows the engine\'s verdict');
  assert.equal(r.dom, KIND[r.verdict], 'the readout\'s DOM carries it');
  assert.deepEqual(r.report.selection, r.selection, 'the verdict is about the selection the references follow');
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.messages, []);
}

// SPEC "global vs local (prompt)": from p0 = (0, 1, 0) the prompt selects the optimal token 0;
// in the local case (last token 0) from p0 = (0, -1, 0) it settles on token 1, whose only support
// token (the zero token, score 0) scores below it (0.9): locally, not globally, optimal.
test('prompt: global from one start, local (with its support token) from another', async () => {
  const g = await finalVerdict('s=prompt-global-local&start=0&speed=1000');
  checkConsistent(g);
  assert.equal(g.verdict, 'globally_optimal', g.view.explanation);
  assert.deepEqual(g.selection, [0]);
  const l = await finalVerdict('s=prompt-global-local&local=1&start=4&speed=1000');
  checkConsistent(l);
  assert.deepEqual(l.selection, [1]);
  assert.equal(l.verdict, 'locally_optimal', l.view.explanation);
  assert.deepEqual(l.report.supportTokens, [[2]]);
  assert.match(l.units.join(' '), /support tokens \{2\}/);
});

for (const attention of ['seq2seq', 'causal']) {
  test(`${attention} attention: one verdict over every (sequence, query) unit, with support tokens per unit`, async () => {
    const r = await finalVerdict(`s=paths2d&att=${attention}&speed=1000`);
    checkConsistent(r);
    const { X } = r.dataset;
    const units = X.length * X[0].length;
    assert.equal(r.selection.length, units, 'one selected token per unit');
    assert.equal(r.report.supportTokens.length, units);
    assert.equal(r.report.optimal.length, units);
    assert.ok(['globally_optimal', 'locally_optimal', 'neither'].includes(r.verdict), r.verdict);
    if (attention === 'causal') {
      r.report.optimal.forEach((t, u) => assert.ok(t <= u % X[0].length, `causal unit ${u}: optimal token ${t} is in range`));
    }
    assert.equal(r.units.length, units, 'the readout lists every unit');
    assert.match(r.units[1], /·q1: selects \d+ \(optimal \d+\); support tokens/);
  });
}
