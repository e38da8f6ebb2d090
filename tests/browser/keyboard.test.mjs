// The lab with the keyboard only (issue 24): every step reaches its control with Tab / Shift+Tab and
// acts with Enter, Space or the arrow keys (no mouse, no element.focus()): play and pause, step,
// reset, choose a scenario, move a token, export a panel, and the play button's name is its visible
// label through the run (Play, Pause, Done: it said "Play" while showing "Done").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage } from './harness.mjs';
import { serveLab, waitReady } from './lab-helpers.mjs';

let site, browser;
before(async () => { site = await serveLab(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

// Presses Tab (Shift+Tab: back) until the focused element matches `selector`; fails after `max`.
async function tabTo(page, selector, { back = false, max = 150 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return i;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${selector} not reached with ${back ? 'Shift+' : ''}Tab in ${max} presses (at ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))})`);
}

// The play button's accessible name and its visible label (without the icon).
const playButton = (page) => page.evaluate(() => {
  const b = document.getElementById('btn-play');
  const visible = b.innerText.replace(/[▶❚✓]/g, '').trim();
  return { visible, label: b.getAttribute('aria-label'), lbl: b.querySelector('.lbl').textContent };
});

test('keyboard only: play, pause, step, reset, scenario, token, export; the play button reads what it shows', { timeout: 90000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?autoplay=0#s=paths2d&speed=20`, { acceptDownloads: true });
  await waitReady(page);
  const name = async (n) => (await page.getByRole('button', { name: n, exact: true }).count()) === 1;

  // play and pause (the button is the first control of the player)
  await tabTo(page, '#btn-play');
  let b = await playButton(page);
  assert.equal(b.visible, 'Play');
  assert.equal(b.label, null, 'no aria-label that could differ from the visible text');
  assert.ok(await name('Play'));
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__lab.playing);
  assert.equal((await playButton(page)).visible, 'Pause');
  assert.ok(await name('Pause'));
  await page.keyboard.press('Space');
  await page.waitForFunction(() => !window.__lab.playing && !window.__lab.busy);

  // step: the next control
  const k0 = await page.evaluate(() => window.__lab.iteration);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'btn-step');
  await page.keyboard.press('Enter');
  await page.waitForFunction((k) => window.__lab.iteration === k + 20 && !window.__lab.busy, k0);

  // reset
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'btn-reset');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__lab.iteration === 0 && window.__lab.ready && !window.__lab.busy);

  // choose a scenario: its select, changed with an arrow key
  await tabTo(page, '#ctl-scenario');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => window.__lab.state.scenario === 'paths2d-t5' && /s=paths2d-t5/.test(location.hash));
  await waitReady(page);

  // move a token with the arrow keys (the tokens follow the controls in the tab order)
  await tabTo(page, 'path.token');
  const which = await page.evaluate(() => [Number(document.activeElement.dataset.seq), Number(document.activeElement.dataset.token)]);
  const x0 = await page.evaluate(([i, t]) => window.__lab.dataset().X[i][t], which);
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => location.hash.includes('data='));
  await waitReady(page);
  const x1 = await page.evaluate(([i, t]) => window.__lab.dataset().X[i][t], which);
  assert.ok(x1[1] > x0[1] && Math.abs(x1[0] - x0[0]) < 1e-3, `token ${which} moved up: ${x0} -> ${x1}`);

  // export the token plane as PNG: its button in the panel's header (before the plane: back)
  await tabTo(page, '#panel-plane [data-export="png"]', { back: true });
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  assert.match(download.suggestedFilename(), /^attnsvm-paths2d-t5-plane\.png$/);

  // to the end of the run: the fastest speed, then play; the button then says and is named "Done"
  await tabTo(page, '#ctl-speed', { back: true });
  await page.keyboard.press('End');
  await page.waitForFunction(() => window.__lab.state.speed === 1000);
  await tabTo(page, '#btn-play', { back: true });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__lab.done && !window.__lab.busy, null, { timeout: 60000 });
  b = await playButton(page);
  assert.equal(b.visible, 'Done');
  assert.equal(b.lbl, 'Done');
  assert.ok(await page.evaluate(() => document.getElementById('btn-play').disabled));
  assert.ok(await name('Done'), 'the disabled button is named "Done"');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the iframe embed: its play button reads what it shows (Play, then Done)', { timeout: 90000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}embed.html#s=paths2d&panels=corr&speed=1000&autoplay=0`);
  await page.waitForFunction(() => window.__embed?.ready);
  await tabTo(page, '.af-primary');
  assert.equal((await page.getByRole('button', { name: 'Play', exact: true }).count()), 1);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__embed.info().done, null, { timeout: 60000 });
  assert.equal(await page.locator('.af-primary').innerText().then((t) => t.replace(/[▶❚✓]/g, '').trim()), 'Done');
  assert.equal((await page.getByRole('button', { name: 'Done', exact: true }).count()), 1);
  assert.deepEqual(problems, []);
  await context.close();
});
