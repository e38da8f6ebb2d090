// Interaction with the lab: dragging a token re-solves the SVM and updates the URL, which restores
// the same state on reload; malformed links and dataset JSON give inline messages and a working
// page; coinciding tokens give the infeasibility explanation; exports are valid; the player steps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, shot } from './harness.mjs';
import { openLab, waitReady, idle, serveLab } from './lab-helpers.mjs';

let site, browser;
before(async () => { site = await serveLab(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

test('dragging a token with the mouse re-solves the SVM, updates the URL, and a reload restores it', async () => {
  const { page, context, problems } = await openLab(browser, site.url, 's=paths2d-t5');
  const before = await page.evaluate(() => ({ W: window.__lab.solution('fro').W, hash: location.hash, data: window.__lab.dataset() }));
  assert.ok(!before.hash.includes('data='));
  // drag the selected token of sequence 0 (token 0, at (1, 0.5)) by 60 px up and right
  const pos = await page.evaluate(() => window.__lab.tokenClientPosition(0, 0));
  assert.ok(pos, 'token (0,0) is drawn');
  await page.mouse.move(pos.x, pos.y);
  await page.mouse.down();
  for (let k = 1; k <= 10; k++) await page.mouse.move(pos.x + 6 * k, pos.y - 6 * k);
  await page.mouse.up();
  await page.waitForFunction(() => location.hash.includes('data='), null, { timeout: 10000 });
  await idle(page);
  const after = await page.evaluate(() => ({ W: window.__lab.solution('fro').W, hash: location.hash, data: window.__lab.dataset(), state: window.__lab.state }));
  assert.notDeepEqual(after.W, before.W, 'the Frobenius SVM changed');
  const moved = after.data.X[0][0];
  assert.ok(moved[0] > before.data.X[0][0][0] && moved[1] > before.data.X[0][0][1], `token moved up-right: ${moved}`);
  after.data.X[1].forEach((tok, t) => tok.forEach((x, k) => assert.ok(Math.abs(x - before.data.X[1][t][k]) < 1e-4, 'other sequence untouched (up to the link\'s rounding)')));
  await shot(page, 'lab-drag-1280x800');
  // reload the URL in a fresh page
  const url = page.url();
  await context.close();
  const { page: p2, context: c2, problems: pr2 } = await openPage(browser, url);
  await waitReady(p2);
  const restored = await p2.evaluate(() => ({ W: window.__lab.solution('fro').W, data: window.__lab.dataset(), state: window.__lab.state }));
  assert.deepEqual(restored.data.X, after.data.X, 'dataset restored');
  assert.deepEqual(restored.state, after.state, 'state restored');
  for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) assert.ok(Math.abs(restored.W[i][j] - after.W[i][j]) < 1e-9, 'solution restored');
  assert.deepEqual(problems, []);
  assert.deepEqual(pr2, []);
  await c2.close();
});

test('a malformed hash shows an inline message naming the problems and keeps a working page', async () => {
  const { page, context, problems } = await openLab(browser, site.url, 's=nonsense&seed=abc&lr=-3&data=%7Bnot-json&zzz=1');
  const msgs = await page.evaluate(() => window.__lab.messages().join(' | '));
  assert.match(msgs, /scenario/);
  assert.match(msgs, /seed/);
  assert.match(msgs, /lr/);
  assert.match(msgs, /data/);
  assert.match(msgs, /zzz/);
  const shown = await page.locator('#messages').innerText();
  assert.match(shown, /link/i);
  // the page works: defaults loaded and the player advances
  await page.evaluate(() => window.__lab.step(50));
  await page.waitForFunction(() => window.__lab.iteration >= 50);
  assert.ok(await page.evaluate(() => window.__lab.plotted().finite));
  await shot(page, 'lab-bad-hash-1280x800');
  assert.deepEqual(problems, []);
  await context.close();
});

test('bad dataset JSON in the editor shows an inline message and keeps the previous data', async () => {
  const { page, context, problems } = await openLab(browser, site.url, 's=paths2d');
  const before = await page.evaluate(() => window.__lab.dataset());
  await page.locator('#json-details summary').click();
  await page.locator('#ctl-json').fill('{"X": [[[1, 2], [3, 4]]], "Y": [1], ');
  await page.locator('#btn-json-apply').click();
  await page.waitForFunction(() => document.querySelector('#json-msg').textContent.length > 0);
  assert.match(await page.locator('#json-msg').innerText(), /not valid JSON/i);
  await page.locator('#ctl-json').fill('{"X": [[[1, 2], [3, 4]], [[0, 1]]], "Z": [[1, 0], [0, 1]], "Y": [1, 1], "v": [1, 0]}');
  await page.locator('#btn-json-apply').click();
  await page.waitForFunction(() => /X\[1\]/.test(document.querySelector('#json-msg').textContent));
  assert.match(await page.locator('#json-msg').innerText(), /X\[1\] must have 2 tokens/);
  const msgs = await page.evaluate(() => window.__lab.messages().join(' | '));
  assert.match(msgs, /Dataset JSON/);
  assert.deepEqual(await page.evaluate(() => window.__lab.dataset()), before, 'previous data kept');
  // a misspelled key is an error naming it and the accepted keys (the CLI's rule), data kept
  const good = '"X": [[[1, 0.5], [-1, 0], [0, -1]], [[1, -0.5], [-1, 0.2], [0, 1]]], "Z": [[0.6, 0.8], [0.8, -0.6]], "Y": [1, 1], "v": [1, 0]';
  await page.locator('#ctl-json').fill(`{${good}, "alhpa": [0, 0]}`);
  await page.locator('#btn-json-apply').click();
  await page.waitForFunction(() => /alhpa/.test(document.querySelector('#json-msg').textContent));
  assert.match(await page.locator('#json-msg').innerText(), /alhpa is not a field; expected one of X, .*alpha.*, attention/);
  assert.deepEqual(await page.evaluate(() => window.__lab.dataset()), before, 'previous data kept');
  // a CLI file (here with a scenario's model and the attention) is applied: its dataset, the
  // extras named as not used; the data lands in the URL
  await page.locator('#ctl-json').fill(`{${good}, "attention": "cross", "model": {"param": "W"}}`);
  await page.locator('#btn-json-apply').click();
  await page.waitForFunction(() => location.hash.includes('data='));
  assert.match(await page.locator('#json-msg').innerText(), /Applied \(not used here: attention, model;/);
  await idle(page);
  assert.deepEqual(await page.evaluate(() => window.__lab.dataset().X[0][0]), [1, 0.5]);
  assert.equal(await page.evaluate(() => window.__lab.solution('fro').status), 'optimal');
  assert.deepEqual(problems, []);
  await context.close();
});

test('two coinciding tokens show the infeasibility explanation instead of a broken plot', async () => {
  const data = { X: [[[1, 0], [1, 0], [-1, 0.5]], [[1, 0.2], [-1, 0], [0, 1]]], Z: [[0, 1], [1, 0]], Y: [1, 1], v: [1, 0] };
  const { page, context, problems } = await openLab(browser, site.url, `s=paths2d&sel=optimal&data=${encodeURIComponent(JSON.stringify(data))}`);
  const r = await page.evaluate(() => ({ sol: window.__lab.solution('fro'), msgs: window.__lab.messages().join(' | '), plane: document.querySelector('#msg-plane').textContent }));
  assert.equal(r.sol.status, 'infeasible');
  assert.ok(r.sol.message.length > 10, 'the engine explains the infeasibility');
  assert.match(r.msgs, /no solution/);
  assert.match(r.plane, /Infeasible/);
  await page.evaluate(() => window.__lab.step(200));
  await page.waitForFunction(() => window.__lab.iteration >= 200);
  assert.ok(await page.evaluate(() => window.__lab.plotted().finite), 'plots stay finite');
  await shot(page, 'lab-infeasible-1280x800');
  assert.deepEqual(problems, []);
  await context.close();
});

test('PNG and SVG exports of every panel are non-empty and valid; trace and dataset downloads', async () => {
  const { page, context, problems } = await openLab(browser, site.url, 's=paths2d&speed=200');
  await page.evaluate(() => window.__lab.step(400));
  await page.waitForFunction(() => window.__lab.iteration >= 400);
  await idle(page);
  const ids = await page.evaluate(() => window.__lab.panels);
  assert.equal(ids.length, 8);
  for (const id of ids) {
    const res = await page.evaluate(async (panel) => {
      const svg = await window.__lab.exportPanel(panel, 'svg');
      const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
      const root = doc.documentElement;
      const png = await window.__lab.exportPanel(panel, 'png');
      const blob = await (await fetch(png)).blob();
      const bmp = await createImageBitmap(blob);
      const head = new Uint8Array(await blob.slice(0, 8).arrayBuffer());
      // drawn content: pixels that differ from the background (a blank image has none)
      const cv = new OffscreenCanvas(bmp.width, bmp.height);
      const cx = cv.getContext('2d');
      cx.drawImage(bmp, 0, 0);
      const px = cx.getImageData(0, 0, bmp.width, bmp.height).data;
      let inked = 0;
      for (let k = 0; k < px.length; k += 4) if (Math.abs(px[k] - px[0]) + Math.abs(px[k + 1] - px[1]) + Math.abs(px[k + 2] - px[2]) > 60) inked++;
      return { svgLen: svg.length, rootName: root.nodeName, parseError: doc.querySelector('parsererror') !== null,
        width: Number(root.getAttribute('width')), children: root.childElementCount, pngBytes: blob.size, pngW: bmp.width, pngH: bmp.height,
        magic: Array.from(head), inked };
    }, id);
    assert.equal(res.rootName, 'svg', `${id}: SVG root`);
    assert.equal(res.parseError, false, `${id}: SVG parses`);
    assert.ok(res.width > 0 && res.children > 1, `${id}: SVG has size and content`);
    assert.deepEqual(res.magic, [137, 80, 78, 71, 13, 10, 26, 10], `${id}: PNG signature`);
    assert.ok(res.pngBytes > 1000 && res.pngW > 100 && res.pngH > 50, `${id}: PNG decodes (${res.pngW}x${res.pngH}, ${res.pngBytes} B)`);
    assert.ok(res.inked > 500, `${id}: PNG has drawn content (${res.inked} inked pixels)`);
  }
  // downloads
  const grab = async (button) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.locator(button).click()]);
    const stream = await dl.createReadStream();
    let text = '';
    for await (const chunk of stream) text += chunk;
    return { name: dl.suggestedFilename(), text };
  };
  const csv = await grab('#btn-csv');
  assert.match(csv.name, /\.csv$/);
  const lines = csv.text.trim().split('\n');
  assert.match(lines[0], /^iteration,loss,normFro,normNuc,normLp,selected\[0\],/);
  assert.ok(lines.length > 150, `${lines.length} CSV lines`);
  assert.ok(lines.slice(1).every((l) => l.split(",").length === lines[0].split(",").length), "rectangular CSV");
  const tj = JSON.parse((await grab('#btn-trace-json')).text);
  assert.ok(tj.trace.loss.length > 150 && tj.dataset.X.length === 2);
  const dj = JSON.parse((await grab('#btn-data-json')).text);
  assert.equal(dj.X.length, 2);
  const pngDl = await Promise.all([page.waitForEvent('download'), page.locator('#panel-plane [data-export="png"]').click()]);
  assert.match(pngDl[0].suggestedFilename(), /plane\.png$/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('controls are labelled and keyboard-operable; player steps deterministically; theme toggles', async () => {
  const { page, context, problems } = await openLab(browser, site.url, 's=local-convergence&speed=50');
  // every form control has an accessible name
  const unlabeled = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
    .filter((el) => !el.closest('[hidden]'))
    .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || el.textContent.trim())).map((el) => el.id || el.outerHTML.slice(0, 60)));
  assert.deepEqual(unlabeled, []);
  // keyboard: focus the scenario select and change it with the arrow key
  await page.locator('#ctl-scenario').focus();
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => window.__lab.state.scenario !== 'local-convergence');
  await waitReady(page);
  const sc = await page.evaluate(() => window.__lab.state.scenario);
  assert.equal(sc, 'rank');
  // stepping twice by 50 equals one step of 100 (deterministic runs)
  await page.evaluate(() => window.__lab.step(50));
  await page.waitForFunction(() => window.__lab.iteration >= 50 && !window.__lab.busy);
  await page.evaluate(() => window.__lab.step(50));
  await page.waitForFunction(() => window.__lab.iteration >= 100 && !window.__lab.busy);
  const a = await page.evaluate(() => window.__lab.plotted().weights);
  await page.evaluate(() => window.__lab.reset());
  await waitReady(page);
  await page.evaluate(() => window.__lab.step(100));
  await page.waitForFunction(() => window.__lab.iteration >= 100 && !window.__lab.busy);
  const b = await page.evaluate(() => window.__lab.plotted().weights);
  assert.deepEqual(a, b);
  // play/pause with the keyboard
  await page.locator('#btn-play').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__lab.playing);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !window.__lab.playing);
  // a token moves with the arrow keys
  await page.locator('#ctl-scenario').selectOption('paths2d');
  await waitReady(page);
  const before = await page.evaluate(() => window.__lab.dataset().X[1][0]);
  await page.locator('path.token[data-seq="1"][data-token="0"]').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => location.hash.includes('data='));
  await waitReady(page);
  const moved = await page.evaluate(() => window.__lab.dataset().X[1][0]);
  assert.ok(moved[0] > before[0] && Math.abs(moved[1] - before[1]) < 1e-3, `moved right: ${before} -> ${moved}`);
  // theme toggle
  const t1 = await page.evaluate(() => document.documentElement.dataset.theme);
  await page.locator('#btn-theme').click();
  const t2 = await page.evaluate(() => document.documentElement.dataset.theme);
  assert.notEqual(t1, t2);
  await idle(page);
  await shot(page, `lab-rank-${t2}-1280x800`);
  assert.ok(await page.evaluate(() => window.__lab.plotted().finite));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a control change updates the URL at once; "Copy link" copies it; the link restores the state', async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?autoplay=0#s=paths2d`,
    { permissions: ['clipboard-read', 'clipboard-write'] });
  await waitReady(page);
  await page.locator('#ctl-optimizer').selectOption('md');
  await page.waitForFunction(() => location.hash.includes('opt=md'));
  await waitReady(page);
  await page.locator('#ctl-p').fill('1.5');
  await page.locator('#ctl-p').dispatchEvent('change');
  await page.waitForFunction(() => location.hash.includes('opt=md') && location.hash.includes('p=1.5'), null, { timeout: 10000 })
    .catch(async (e) => { throw new Error(`${e.message}; hash ${await page.evaluate(() => location.hash)}`); });
  await waitReady(page);
  await page.locator('#btn-copy').click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await page.evaluate(() => location.href));
  const state = await page.evaluate(() => window.__lab.state);
  await context.close();
  const { page: p2, context: c2, problems: pr2 } = await openPage(browser, copied);
  await waitReady(p2);
  assert.deepEqual(await p2.evaluate(() => window.__lab.state), state);
  assert.equal(await p2.locator('#ctl-optimizer').inputValue(), 'md');
  assert.equal(await p2.locator('#ctl-p').inputValue(), '1.5');
  assert.deepEqual(problems, []);
  assert.deepEqual(pr2, []);
  await c2.close();
});
