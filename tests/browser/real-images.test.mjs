// The "Real images" scenario (SPEC section 6, web/src/real/) in headless Chromium: the asset of the
// two classes and the experiments module are fetched only when the scenario opens; it trains (to the
// end, accuracies finite and better than chance); the gallery draws the images with their attention;
// a click shows an image's softmax over patches; a missing, corrupt or truncated asset gives a clear
// message and the page keeps its state; the iframe and <attnsvm-figure> embeds run it. Numbers are read
// through window.__lab.real() / the embeds' hooks; screenshots go to artifacts/screenshots/real-*.png.
// Compare mode's responsiveness (three workers, no main-thread task over 50 ms) is timed in
// real-images-perf.test.mjs. Needs the site build (npx vite build, which writes the asset) and the
// wasm module.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { launchBrowser, openPage, shot, repoRoot } from './harness.mjs';
import { serveLab, openLab, waitReal } from './lab-helpers.mjs';

let site, browser;
before(async () => {
  // the element (npm run build's second step) is built here when the site build emptied dist/
  const dist = resolve(repoRoot, 'dist'), element = resolve(dist, 'attnsvm-figure.js');
  if (!existsSync(element) || statSync(element).mtimeMs < statSync(resolve(dist, 'embed.html')).mtimeMs) {
    execFileSync('npx', ['vite', 'build', '-c', 'vite.element.config.js', '--logLevel', 'warn'], { cwd: repoRoot, stdio: 'inherit' });
  }
  site = await serveLab();
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await site?.close(); });

const SMALL = 'ntr=200&nte=200&it=60';
const isAsset = (url) => /\/data\/fashion-mnist\//.test(url);

// Shares of gallery pixels that are dark (the garments) and that carry the attention overlay: a grey
// mixed with the overlay's orange (230, 159, 0) has (g - b) / (r - g) = 159 / 71 = 2.24, which the
// labels' green and vermillion do not.
const galleryStats = (page) => page.evaluate(() => {
  const c = document.querySelector('#real-images canvas.real-gallery');
  const copy = Object.assign(document.createElement('canvas'), { width: c.width, height: c.height });
  const cx = copy.getContext('2d', { willReadFrequently: true });
  cx.drawImage(c, 0, 0);
  const d = cx.getImageData(0, 0, c.width, c.height).data;
  let dark = 0, orange = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i] < 128 && d[i + 1] < 128 && d[i + 2] < 128) dark++;
    const rg = d[i] - d[i + 1], gb = d[i + 1] - d[i + 2];
    if (rg > 8 && gb / rg > 1.9 && gb / rg < 2.6) orange++;
  }
  return { w: c.width, h: c.height, dark: dark / (d.length / 4), orange: orange / (d.length / 4) };
});

test('the asset and the experiments module are fetched only when the scenario opens', { timeout: 120000 }, async () => {
  const { page, context, problems } = await openPage(browser, 'about:blank');
  const urls = [];
  page.on('request', (r) => urls.push(r.url()));
  await page.goto(`${site.url}?autoplay=0#s=local-convergence`);
  await page.waitForFunction(() => window.__lab?.ready, null, { timeout: 30000 });
  await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
  assert.deepEqual(urls.filter(isAsset), [], 'the lab fetched real-images data on first load');
  assert.deepEqual(urls.filter((u) => u.includes('attnsvm-experiments')), [], 'the lab fetched the experiments module on first load');
  await page.evaluate(() => window.__lab.set({ scenario: 'real-images', classA: 0, classB: 1, nTrain: 100, nTest: 100, iterations: 20 }));
  const r = await waitReal(page);
  assert.equal(r.error ?? null, null);
  assert.ok(r.loaded);
  const data = urls.filter(isAsset).map((u) => new URL(u).pathname.split('/').pop()).sort();
  assert.deepEqual(data, ['class-0.bin.gz', 'class-1.bin.gz'], 'exactly the two classes are fetched (seed 0: their first 500 images)');
  // a seed > 0 draws from the first 1000 of each class: the rest of the pool is fetched then
  await page.evaluate(() => window.__lab.set({ seed: 3 }));
  await page.waitForFunction(() => { const x = window.__lab.real(); return x && (x.loaded || x.message) && /seed=3/.test(location.hash); }, null, { timeout: 60000, polling: 100 });
  assert.equal((await waitReal(page)).message ?? null, null);
  const more = urls.filter(isAsset).map((u) => new URL(u).pathname.split('/').pop()).filter((n) => n.includes('-more')).sort();
  assert.deepEqual(more, ['class-0-more.bin.gz', 'class-1-more.bin.gz']);
  assert.ok(urls.some((u) => u.endsWith('attnsvm-experiments.wasm')));
  assert.match(await page.evaluate(() => location.hash), /s=real-images/);
  assert.match(await page.evaluate(() => location.hash), /ca=0/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('it trains to the end, the gallery draws the attention, a click shows the softmax over patches', { timeout: 180000 }, async () => {
  const { page, context, problems } = await openLab(browser, site.url, `s=real-images&${SMALL}&opt=nmd&p=2`, { viewport: { width: 1400, height: 900 } });
  await waitReal(page);
  const before = await galleryStats(page);
  await page.evaluate(() => window.__lab.realView().play());
  const r = await waitReal(page, 'done', 150000);
  assert.equal(r.message ?? null, null, r.message);
  const run = r.runs[0];
  assert.equal(run.iteration, 60);
  assert.equal(r.gallery, 24);
  for (const k of ['trainAccuracy', 'testAccuracy', 'trainLoss', 'testLoss', 'testMaxSoftmax', 'sparsity']) assert.ok(Number.isFinite(run.last[k]), `${k} = ${run.last[k]}`);
  assert.ok(run.last.testAccuracy > 0.6, `test accuracy ${run.last.testAccuracy} (Sneaker vs Ankle boot, chance = 0.5)`);
  assert.ok(run.last.trainLoss < Math.log(2), 'the training loss fell below its value at W = 0, v = 0');
  assert.equal(run.last.histogram.length, 20);
  assert.ok(run.analysis && typeof run.analysis.verdict === 'string', 'the SVM analysis ran at the end');
  const after = await galleryStats(page);
  assert.ok(after.dark > 0.02, `the gallery shows the garments (dark share ${after.dark})`);
  // at W = 0 the attention is uniform: no overlay; after training it marks the patches attended to
  assert.ok(before.orange < 0.001 && after.orange > 0.005, `the attention overlay is drawn (orange share ${before.orange} -> ${after.orange})`);
  // click the third image
  const pt = await page.evaluate(() => window.__lab.realView().tileCenter(2));
  await page.mouse.click(pt.x, pt.y);
  await page.waitForFunction(() => window.__lab.real().detail?.index !== undefined, null, { timeout: 10000 });
  const detail = await page.evaluate(() => ({ info: window.__lab.real().detail, text: document.getElementById('real-body-detail').textContent }));
  assert.match(detail.text, /Selected patch \(\d, \d\) with s = /);
  assert.match(detail.text, /First 200 training images: the selection is /);
  await shot(page, 'real-lab-1400x900', { fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

// Each case: what the server answers for class-7.bin.gz, and what the message must say.
const BAD = [
  ['missing', (route) => route.fulfill({ status: 404, body: 'not found' }), /class-7\.bin\.gz is missing from this site \(HTTP 404\).*apt-get install dataset-fashion-mnist/],
  ['corrupt', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: Buffer.from('this is not the asset at all') }), /class-7\.bin\.gz: not a real-images asset \(magic "this" at byte offset 0/],
  ['truncated', async (route) => {
    const res = await route.fetch();
    const { gunzipSync } = await import('node:zlib');
    const body = await res.body();  // the server may send the file with Content-Encoding: gzip
    const raw = body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body;
    route.fulfill({ status: 200, contentType: 'application/octet-stream', body: raw.subarray(0, 5000) });
  }, /class-7\.bin\.gz: truncated at byte offset 5000/],
];
for (const [name, answer, expected] of BAD) {
  test(`a ${name} asset gives a clear message and the page keeps its state`, { timeout: 60000 }, async () => {
    const { page, context } = await openPage(browser, 'about:blank');
    await page.route('**/data/fashion-mnist/class-7.bin.gz', answer);
    await page.goto(`${site.url}?autoplay=0#s=real-images&${SMALL}`);
    await page.waitForFunction(() => window.__lab?.ready, null, { timeout: 30000 });
    const r = await waitReal(page);
    assert.match(r.message ?? '', expected);
    assert.match(await page.evaluate(() => document.querySelector('#real-images .real-messages').textContent), expected);
    assert.match(await page.evaluate(() => location.hash), /s=real-images/);
    assert.match(await page.evaluate(() => location.hash), /it=60/);
    // the page still works: another scenario opens
    await page.unroute('**/data/fashion-mnist/class-7.bin.gz');
    await page.evaluate(() => window.__lab.set({ scenario: 'paths2d' }));
    await page.waitForFunction(() => window.__lab.state.scenario === 'paths2d' && window.__lab.iteration === 0 && !window.__lab.busy && window.__lab.dataset(), null, { timeout: 30000 });
    assert.equal(await page.evaluate(() => document.getElementById('real-images').hidden), true);
    await context.close();
  });
}

test('embeds: the iframe and <attnsvm-figure> run the scenario', { timeout: 180000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}embed.html#s=real-images&${SMALL}&panels=gallery,accuracy,hist`, { viewport: { width: 700, height: 450 } });
  await page.waitForFunction(() => window.__embed?.info()?.ready || window.__embed?.info()?.error, null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.__embed.info().error), null);
  await page.evaluate(() => window.__embed.play());
  await page.waitForFunction(() => window.__embed.info().done, null, { timeout: 120000, polling: 200 });
  const info = await page.evaluate(() => window.__embed.info());
  assert.equal(info.iteration, 60);
  assert.ok(info.real.runs[0].last.testAccuracy > 0.6);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  await shot(page, 'real-embed-700x450', { fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('<attnsvm-figure scenario="real-images"> runs from its script tag (the real-images code fetched beside it: attnsvm-figure-real.js)', { timeout: 180000 }, async () => {
  const { page, context, problems } = await openPage(browser, 'about:blank', { viewport: { width: 700, height: 450 } });
  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title><link rel="icon" href="data:,"></head><body>' +
    '<attnsvm-figure scenario="real-images" panels="gallery,accuracy" state="ntr=100&nte=100&it=40&ca=5&cb=7"></attnsvm-figure>' +
    '<script src="attnsvm-figure.js"></script></body></html>';
  await page.route(`${site.url}element-real.html`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: html }));
  await page.goto(`${site.url}element-real.html`);
  await page.waitForFunction(() => document.querySelector('attnsvm-figure')?.info()?.ready || document.querySelector('attnsvm-figure')?.info()?.error, null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => document.querySelector('attnsvm-figure').info().error), null);
  await page.evaluate(() => document.querySelector('attnsvm-figure').play());
  await page.waitForFunction(() => document.querySelector('attnsvm-figure').done, null, { timeout: 120000, polling: 200 });
  const info = await page.evaluate(() => document.querySelector('attnsvm-figure').info());
  assert.equal(info.iteration, 40);
  assert.ok(info.real.runs[0].last.testAccuracy > 0.6, `Sandal vs Sneaker: test accuracy ${info.real.runs[0].last.testAccuracy}`);
  await shot(page, 'real-element-700x450', { fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});
