// Figures in slides (issue 24): the example reveal.js deck (web/examples/slides.html) with an iframe
// figure and an <attnsvm-figure> on different slides. reveal.js loads the iframe when its slide shows
// and unloads it when the slide is left; coming back restores the figure from its URL. The element
// pauses while its slide is hidden and goes on when it shows again. Driven with the deck's keys.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage } from './harness.mjs';
import { serveLab } from './lab-helpers.mjs';

let site, browser;
before(async () => { site = await serveLab(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

const current = (page) => page.evaluate(() => window.__deck.getIndices().h);
async function go(page, h) {
  // the deck's keyboard: right / left arrows
  while (await current(page) !== h) {
    await page.keyboard.press((await current(page)) < h ? 'ArrowRight' : 'ArrowLeft');
    await page.waitForTimeout(150);
  }
}
const frameInfo = (page) => page.evaluate(() => {
  const f = document.getElementById('fig-paths');
  const w = f.getAttribute('src') ? f.contentWindow : null;
  return { src: f.getAttribute('src'), ready: !!w?.__embed?.ready, info: w?.__embed?.info() ?? null,
    lab: w?.document.querySelector('.af-lab')?.href ?? null, problems: w?.__embed?.problems?.length ?? null };
});

test('reveal.js deck: the iframe figure unloads with its slide and comes back from its URL; the element pauses and resumes', { timeout: 120000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}examples/slides.html`, { viewport: { width: 1280, height: 800 } });
  await page.waitForFunction(() => window.__deck?.isReady());
  // the title slide: the iframe figure is not loaded yet
  assert.equal((await frameInfo(page)).src, null);

  // slide 2: the iframe figure loads and plays
  await go(page, 1);
  await page.waitForFunction(() => document.getElementById('fig-paths').contentWindow?.__embed?.ready, null, { timeout: 60000 });
  await page.waitForFunction(() => document.getElementById('fig-paths').contentWindow.__embed.info().iteration > 0, null, { timeout: 30000 });
  const first = await frameInfo(page);
  assert.equal(first.info.scenario, 'paths2d');
  assert.deepEqual(first.info.panels, ['plane', 'corr']);
  assert.equal(first.problems, 0);
  assert.match(first.src, /embed\.html#s=paths2d&speed=10&panels=plane,corr&id=paths$/);

  // slide 4: the iframe is unloaded; the element figure starts
  await go(page, 3);
  assert.equal((await frameInfo(page)).src, null, 'reveal.js unloaded the iframe');
  await page.waitForFunction(() => document.getElementById('fig-local').ready && document.getElementById('fig-local').playing, null, { timeout: 60000 });
  await page.waitForFunction(() => document.getElementById('fig-local').iteration > 0);

  // back to slide 2: the figure is loaded again from its URL, the same figure
  await go(page, 1);
  const leftAt = await page.evaluate(() => document.getElementById('fig-local').iteration);
  await page.waitForFunction(() => document.getElementById('fig-paths').contentWindow?.__embed?.ready, null, { timeout: 60000 });
  const again = await frameInfo(page);
  assert.equal(again.src, first.src);
  assert.equal(again.info.scenario, first.info.scenario);
  assert.deepEqual(again.info.panels, first.info.panels);
  assert.equal(again.lab, first.lab, 'the same state (its "open in the lab" link)');
  assert.equal(again.info.maxIterations, first.info.maxIterations);
  // the element, on a hidden slide, is paused
  assert.equal(await page.evaluate(() => document.getElementById('fig-local').playing), false, 'the hidden element pauses');
  await page.waitForTimeout(400);
  assert.ok(await page.evaluate(() => document.getElementById('fig-local').iteration) <= leftAt + 50, 'and stays paused');

  // slide 4 again: the element goes on from where it was
  await go(page, 3);
  await page.waitForFunction(() => document.getElementById('fig-local').playing || document.getElementById('fig-local').done, null, { timeout: 30000 });
  await page.waitForFunction((k) => document.getElementById('fig-local').iteration > k, leftAt, { timeout: 30000 });
  assert.equal((await frameInfo(page)).src, null, 'the iframe is unloaded again');
  assert.deepEqual(problems, []);
  await context.close();
});
