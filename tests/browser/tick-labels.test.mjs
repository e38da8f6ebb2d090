// The curve charts' tick labels (web/src/plots/number-format.js) are uPlot's own: its default labels
// are Intl.NumberFormat(navigator.language).format(v), written out for English to spare the page
// Intl's first use (~33 ms in the first chart's build). Checked in node against Intl's en-US labels
// over many values, and in Chromium on the lab's charts (every linear axis's labels against Intl's
// labels of the same splits), in English and in a language the page leaves to Intl.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { formatTick, tickLabels } from '../../web/src/plots/number-format.js';
import { launchBrowser, openPage } from './harness.mjs';
import { serveLab, waitReady, runToEnd } from './lab-helpers.mjs';

test('formatTick prints what Intl.NumberFormat("en-US") prints', () => {
  const nf = new Intl.NumberFormat('en-US');
  const values = [0, -0, 0.0005, 1.0005, 2.0005, 0.9995, 999.9995, -0.0004, -0.0005, 0.1 + 0.2, 1e20, 123456789.123456, 5e-6];
  // axis splits: multiples of 1, 2, 2.5, 5 x 10^e (exact and as uPlot's rounding leaves them)
  for (let e = -6; e <= 7; e++) {
    for (const m of [1, 2, 2.5, 5]) {
      for (let k = -40; k <= 40; k++) values.push(k * m * 10 ** e, Number((k * m * 10 ** e).toFixed(12)));
    }
  }
  // and any value (a seeded generator: the same values every run)
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < 50000; i++) {
    const v = (rand() - 0.5) * 10 ** (rand() * 14 - 5);
    values.push(v, Number(v.toPrecision(1 + Math.floor(rand() * 6))));
  }
  let handled = 0;
  for (const v of values) {
    const s = formatTick(v);
    if (s === null) continue;   // (exponent range: left to Intl)
    handled++;
    assert.equal(s, nf.format(v), `formatTick(${v})`);
  }
  assert.ok(handled > values.length * 0.95, `only ${handled} of ${values.length} values formatted`);
  assert.equal(formatTick(1e-7), null);
  assert.deepEqual(tickLabels('en-US')(null, [1e-7, null, 1234]), [nf.format(1e-7), '', '1,234']);
  // another language: Intl's labels
  assert.deepEqual(tickLabels('de-DE')(null, [1234.5, 0.25]), ['1.234,5', '0,25']);
});

let site, browser;
before(async () => { site = await serveLab(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

for (const locale of ['en-US', 'de-DE']) {
  test(`the curve charts' tick labels are Intl's (${locale})`, async () => {
    const { page, context, problems } = await openPage(browser, `${site.url}?autoplay=0#s=local-convergence`, { locale });
    await waitReady(page);
    await page.evaluate(() => document.getElementById('panel-norms').scrollIntoView());
    await runToEnd(page);
    const axes = await page.evaluate(() => {
      const out = [];
      for (const id of ['corr', 'norms']) {
        const plot = window.__lab._panels[id].plot;
        for (const a of plot.axes) {
          const sc = plot.scales[a.scale];
          if (sc.distr === 3) continue;   // (a log axis: the lab's own labels, curves.js)
          const splits = a._splits ?? [];
          const nf = new Intl.NumberFormat(navigator.language);
          out.push({ id, scale: a.scale, got: a._values, want: splits.map((v) => (v == null ? '' : nf.format(v))) });
        }
      }
      return { lang: navigator.language, out };
    });
    assert.equal(axes.lang, locale);
    assert.ok(axes.out.length >= 3, `linear axes found: ${axes.out.length}`);
    for (const a of axes.out) {
      assert.ok(a.got.length > 0, `${a.id} ${a.scale}: no labels`);
      assert.deepEqual(a.got, a.want, `${a.id} ${a.scale}`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}
