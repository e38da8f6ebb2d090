// The lab's formulas are SVG made at build time (scripts/tex-svg.mjs, issue 24): no KaTeX, no web font
// and no font declaration in the built lab (a stylesheet adding @font-face rules, or a font arriving,
// restyled and relaid out the whole page), and every scenario's formulas are pictures (paths, no
// text) with the spoken formula as their accessible name, drawn in the text's colour (dark theme).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { launchBrowser, openPage, repoRoot } from './harness.mjs';
import { SCENARIOS, serveLab, waitReady } from './lab-helpers.mjs';
import { SCENARIO_INFO } from '../../web/src/lab/scenarios.js';
import { texToSpeech } from '../../scripts/tex-svg.mjs';

const dist = resolve(repoRoot, 'dist');
let site, browser;
before(async () => { site = await serveLab(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

test('the built lab references no KaTeX, web font or @font-face', () => {
  const html = readFileSync(resolve(dist, 'index.html'), 'utf8');
  const css = readdirSync(resolve(dist, 'assets')).filter((f) => f.endsWith('.css'));
  // the CSS the lab's page links (inline today: index.html's <style>; a <link> if that changes)
  const linked = [...html.matchAll(/<link[^>]+href="\.\/(assets\/[^"]+\.css)"/g)].map((m) => m[1]);
  for (const [name, text] of [['index.html', html], ...linked.map((f) => [f, readFileSync(resolve(dist, f), 'utf8')])]) {
    assert.doesNotMatch(text, /katex/i, `${name} mentions KaTeX`);
    assert.doesNotMatch(text, /@font-face/, `${name} declares a font`);
    assert.doesNotMatch(text, /\.(woff2?|ttf|otf|eot)\b/, `${name} references a font file`);
  }
  for (const f of css) assert.doesNotMatch(readFileSync(resolve(dist, 'assets', f), 'utf8'), /katex/i, `assets/${f} mentions KaTeX`);
  assert.deepEqual(readdirSync(resolve(dist, 'assets')).filter((f) => /katex/i.test(f)), [], 'no KaTeX file in dist/assets');
});

test('each scenario\'s formulas are SVG pictures with an accessible name, in the text\'s colour, in their slots', async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?autoplay=0#s=paths2d`, { colorScheme: 'dark' });
  await waitReady(page);
  for (const name of SCENARIOS) {
    const spoken = await Promise.all(SCENARIO_INFO[name].formulas.map((tex) => texToSpeech(tex)));
    assert.ok(spoken.length > 0, `${name} has formulas`);
    if (name !== 'paths2d') await page.selectOption('#ctl-scenario', name);
    // (the last scenario's formulas go at once; this one's come in their chunk)
    await page.waitForFunction((labels) => {
      const slots = [...document.querySelectorAll('#sc-formulas .formula')];
      return slots.length === labels.length && slots.every((s, i) => s.querySelector('svg')?.getAttribute('aria-label') === labels[i]);
    }, spoken, { timeout: 20000 });
    const r = await page.evaluate(() => [...document.querySelectorAll('#sc-formulas .formula')].map((slot) => {
      const svg = slot.querySelector('svg');
      const box = svg.getBoundingClientRect(), sbox = slot.getBoundingClientRect();
      return {
        children: slot.children.length, role: svg.getAttribute('role'), label: svg.getAttribute('aria-label') ?? '',
        paths: svg.querySelectorAll('path').length, texts: svg.querySelectorAll('text, foreignObject').length,
        fill: getComputedStyle(svg.querySelector('g')).fill, color: getComputedStyle(slot).color,
        height: box.height, slotHeight: sbox.height, top: box.top - sbox.top, bottom: sbox.bottom - box.bottom,
      };
    }));
    r.forEach((f, i) => {
      const what = `${name}, formula ${i + 1}`;
      assert.equal(f.children, 1, `${what}: one SVG in its slot`);
      assert.equal(f.role, 'img', `${what}: role img`);
      assert.ok(f.label.length >= 8 && !/\\/.test(f.label), `${what}: a spoken name, not TeX ("${f.label}")`);
      assert.ok(f.paths > 0 && f.texts === 0, `${what}: glyphs as paths, no text (no font)`);
      assert.equal(f.fill, f.color, `${what}: drawn in the text's colour`);
      assert.ok(f.height > 10 && f.top >= -0.5 && f.bottom >= -0.5, `${what}: inside its slot (${f.height} px in ${f.slotHeight} px)`);
    });
    // the accessibility tree names them (what a screen reader reads)
    for (const label of spoken) assert.equal(await page.getByRole('img', { name: label, exact: true }).count(), 1, `${name}: "${label}" in the accessibility tree`);
  }
  const fonts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((u) => /\.(woff2?|ttf|otf|eot)(\?|$)/.test(u)));
  assert.deepEqual(fonts, [], 'the lab loads no font');
  assert.equal(await page.evaluate(() => document.fonts.size), 0, 'the lab declares no font');
  assert.deepEqual(problems, []);
  await context.close();
});
