// Authors see their mistakes (issue 24): an embed with a setting it does not understand runs with the
// defaults, warns once in the console naming the parameter as written, its value and what it accepts,
// and shows a notice in the figure that the reader can dismiss; a valid embed shows nothing extra.
// Hostile links for the iframe (one page, the hash changed link after link) and attributes for
// <attnsvm-figure>.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage } from './harness.mjs';
import { serveLab } from './lab-helpers.mjs';

let site, browser;
before(async () => { site = await serveLab(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

// [hash after s=paths2d&autoplay=0&panels=corr, the parameter as written, its value, a word of what it accepts]
const HOSTILE = [
  ['opt=sgd', 'opt', 'sgd', 'ngd'],
  ['spead=5', 'spead', '5', 'speed'],
  ['lr=-1', 'lr', '-1', 'a number in [0.000001, 100]'],
  ['lr=abc', 'lr', 'abc', 'a number in [0.000001, 100]'],
  ['it=999999', 'it', '999999', '1..20000'],
  ['seed=1.5', 'seed', '1.5', 'integer'],
  ['seed=-3', 'seed', '-3', '0..2147483647'],
  ['speed=0', 'speed', '0', '1..1000'],
  ['att=crosss', 'att', 'crosss', 'seq2seq'],
  ['param=QK', 'param', 'QK', 'prompt'],
  ['head=tanh', 'head', 'tanh', 'relu'],
  ['loss=hinge', 'loss', 'hinge', 'exponential'],
  ['refs=fro,l1', 'refs', 'fro,l1', 'nuclear'],
  ['sel=best', 'sel', 'best', 'optimal'],
  ['local=yes', 'local', 'yes', '0 or 1'],
  ['gen=uniform', 'gen', 'uniform', 'sphere'],
  ['n=0', 'n', '0', '1..30'],
  ['T=99', 'T', '99', '2..20'],
  ['d=1e9', 'd', '1e9', '1..24'],
  ['p=1', 'p', '1', '[1.05, 10]'],
  ['svmp=NaN', 'svmp', 'NaN', '[1.05, 10]'],
  ['data=%7Bbad', 'data', '{bad', 'JSON'],
  ['data=%7B%22X%22%3A1%7D', 'data', '{"X":1}', 'JSON'],
  ['theme=purple', 'theme', 'purple', 'auto'],
  ['autoplay=maybe', 'autoplay', 'maybe', '0 or 1'],
  ['panels=corr,plain', 'panels', 'plain', 'plane'],
  ['Panels=corr', 'Panels', 'corr', 'panels'],
  ['captoin=Hi', 'captoin', 'Hi', 'caption'],
];
const BASE = 's=paths2d&autoplay=0&panels=corr';

test('iframe embed: each hostile link warns (parameter, value, accepted values) and shows a dismissable notice', { timeout: 180000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}embed.html#${BASE}`, { viewport: { width: 720, height: 600 } });
  await page.waitForFunction(() => window.__embed?.ready);
  assert.deepEqual(problems, [], 'a valid embed warns about nothing');
  assert.equal(await page.locator('.af-notice').isVisible(), false, 'and shows no notice');
  for (const [extra, param, value, accepted] of HOSTILE) {
    const before = problems.length;
    const key = extra.split('=')[0];
    const base = BASE.split('&').filter((kv) => kv.split('=')[0] !== key).join('&');  // (a key given twice: the first counts)
    await page.evaluate((h) => { location.hash = h; }, `${base}&${extra}`);
    await page.waitForFunction((p) => window.__embed.problems.some((x) => x.param === p) && window.__embed.ready, param, { timeout: 30000 })
      .catch((e) => { throw new Error(`${extra}: ${e.message} (problems: ${JSON.stringify(problems.slice(before))})`); });
    const warnings = problems.slice(before);
    assert.equal(warnings.length, 1, `${extra}: one console warning (${warnings.join(' || ')})`);
    const w = warnings[0];
    assert.match(w, /^warning: attnsvm figure/, extra);
    assert.ok(w.includes(`${param}="${value}"`), `${extra}: names the parameter and value: ${w}`);
    assert.ok(w.includes('accepted:') && w.includes(accepted), `${extra}: lists what it accepts (${accepted}): ${w}`);
    const notice = page.locator('.af-notice');
    assert.ok(await notice.isVisible(), `${extra}: notice shown`);
    assert.ok((await notice.innerText()).includes(`${param}=${value}`), `${extra}: notice names it`);
    // the figure runs with the defaults
    assert.equal(await page.evaluate(() => window.__embed.info().scenario), 'paths2d');
    await notice.getByRole('button', { name: 'Dismiss this notice' }).click();
    assert.equal(await notice.isVisible(), false, `${extra}: dismissed`);
  }
  // a did-you-mean for a misspelled key
  await page.evaluate((h) => { location.hash = h; }, `${BASE}&spead=5`);
  await page.waitForFunction(() => window.__embed.problems.some((x) => x.param === 'spead') && window.__embed.ready);
  assert.match(problems.at(-1), /did you mean "speed"/);
  // back to a valid link: no notice, no new warning
  const n = problems.length;
  await page.evaluate((h) => { location.hash = h; }, 's=mirror-descent&panels=weights,corr&theme=dark&speed=10&autoplay=0&caption=Hello&id=fig');
  await page.waitForFunction(() => window.__embed.info()?.scenario === 'mirror-descent' && window.__embed.ready);
  assert.equal(problems.length, n);
  assert.equal(await page.locator('.af-notice').isVisible(), false);
  await context.close();
});

test('<attnsvm-figure>: unknown attributes and bad values warn with the attribute\'s name; a valid element is quiet', { timeout: 90000 }, async () => {
  const html = `<!doctype html><html lang="en"><head><title>t</title><script src="attnsvm-figure.js" defer></script></head><body><main>
    <attnsvm-figure id="bad" scenario="pahts2d" spead="3" panels="corr,softmx" autoplay="off" state="opt=sgd&seed=2"></attnsvm-figure>
    <attnsvm-figure id="good" scenario="local-convergence" panels="softmax,corr" speed="10" autoplay="0" class="x" data-note="1" aria-describedby="c"></attnsvm-figure>
    <p id="c">caption</p></main></body></html>`;
  const { page, context, problems } = await openPage(browser, 'about:blank', { viewport: { width: 900, height: 1400 } });
  // a page of the site's origin (served by the route, not a file of the site)
  await page.route(`${site.url}warnings-test.html`, (r) => r.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(`${site.url}warnings-test.html`);
  await page.waitForFunction(() => ['bad', 'good'].every((id) => document.getElementById(id)?.ready), null, { timeout: 60000 });
  const warnings = problems.filter((p) => p.startsWith('warning:'));
  assert.equal(warnings.length, 1, `one warning, for #bad only: ${warnings.join(' || ')}`);
  const w = warnings[0];
  assert.match(w, /<attnsvm-figure #bad>/);
  for (const part of ['scenario="pahts2d"', 'spead="3"', 'did you mean "speed"', 'panels="softmx"', 'state: opt="sgd"', 'accepted:', 'paths2d, paths2d-t5']) {
    assert.ok(w.includes(part), `the warning says ${part}: ${w}`);
  }
  const notice = (id) => page.evaluate((i) => {
    const n = document.getElementById(i).shadowRoot.querySelector('.af-notice');
    return { shown: !n.hidden, text: n.textContent };
  }, id);
  const bad = await notice('bad');
  assert.ok(bad.shown && /scenario=pahts2d/.test(bad.text) && /spead=3/.test(bad.text), JSON.stringify(bad));
  assert.equal((await notice('good')).shown, false);
  // the reader dismisses it (inside the shadow root: playwright's locators pierce it)
  await page.locator('#bad').getByRole('button', { name: 'Dismiss this notice' }).click();
  assert.equal((await notice('bad')).shown, false);
  // the bad figure runs the defaults (paths2d), seed 2 kept from its state
  assert.equal(await page.evaluate(() => document.getElementById('bad').info().scenario), 'paths2d');
  assert.deepEqual(problems.filter((p) => !p.startsWith('warning:')), []);
  await context.close();
});
