// The lab's first drawing (web/src/lab/render-loop.js renderStaggered): the first frame (the mark
// 'lab-first-frame') is marked once the panels on screen are drawn, before the others, also when the
// visibility observers report only after the engine's answer (placePanels); and every font the drawn
// panels use is resolved ahead (web/src/plots/font-warmup.js) unless the page's own text uses it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage } from './harness.mjs';
import { serveLab, waitReady, idle, frames } from './lab-helpers.mjs';
import { PLOT_FONTS } from '../../web/src/plots/font-warmup.js';
import { themeColors } from '../../web/src/plots/theme.js';

let browser, site;
before(async () => { browser = await launchBrowser(); site = await serveLab(); });
after(async () => { await browser?.close(); await site?.close(); });

// (in the page, before its scripts) at the mark: which panels have a drawing
const RECORD_AT_MARK = (lateObservers) => {
  const drawn = () => ({
    plane: !!document.querySelector('#body-plane svg.token-plane path.token'),
    softmax: !!document.querySelector('#body-softmax .time-heatmap svg g'),
    current: !!document.querySelector('#body-current svg g.item rect'),
    corr: !!document.querySelector('#body-corr .uplot'),
    norms: !!document.querySelector('#body-norms .uplot'),
    spectrum: !!document.querySelector('#body-spectrum svg *'),
    weights: !!document.querySelector('#body-weights svg *'),
  });
  const mark = performance.mark.bind(performance);
  performance.mark = (name, ...rest) => {
    if (name === 'lab-first-frame') window.__drawnAtMark = drawn();
    return mark(name, ...rest);
  };
  // the observers' reports held back until the page is ready (as when the engine answers before the
  // browser's first rendering update after the lab's start)
  if (lateObservers) {
    const IO = window.IntersectionObserver;
    window.IntersectionObserver = class extends IO {
      constructor(callback, options) {
        super((entries, observer) => {
          const deliver = () => (window.__lab?.ready ? callback(entries, observer) : setTimeout(deliver, 20));
          deliver();
        }, options);
      }
    };
  }
};

async function drawnAtMark(viewport, lateObservers) {
  const { page, context, problems } = await openPage(browser, 'about:blank', { viewport });
  try {
    await page.addInitScript(RECORD_AT_MARK, lateObservers);
    await page.goto(`${site.url}?autoplay=0`);
    await waitReady(page);
    const at = await page.evaluate(() => window.__drawnAtMark);
    // the panels on screen, as the page lays them out
    const onScreen = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('.panel')].map((p) => {
      const r = p.getBoundingClientRect();
      return [p.id.replace(/^panel-/, ''), r.bottom > 0 && r.top < innerHeight];
    })));
    assert.deepEqual(problems, []);
    return { at, onScreen };
  } finally {
    await context.close();
  }
}

for (const lateObservers of [false, true]) {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 412, height: 823 }]) {
    test(`first frame marked with the panels on screen drawn, the others not (${viewport.width}x${viewport.height}${lateObservers ? ', observers late' : ''})`, async () => {
      const { at, onScreen } = await drawnAtMark(viewport, lateObservers);
      assert.ok(at, 'the mark was set');
      for (const [id, drawn] of Object.entries(at)) {
        if (onScreen[id]) assert.equal(drawn, true, `${id} (on screen) drawn at the mark`);
        else assert.equal(drawn, false, `${id} (off screen) not drawn before the mark`);
      }
      assert.ok(Object.values(onScreen).filter(Boolean).length >= 1 && !onScreen.spectrum, `on screen: ${JSON.stringify(onScreen)}`);
    });
  }
}

test('every font the drawn panels use is the page\'s own or resolved ahead', async () => {
  const { page, context } = await openPage(browser, `${site.url}?autoplay=0`);
  try {
    await waitReady(page);
    // every panel drawn: scrolled through
    const height = await page.evaluate(() => document.body.scrollHeight);
    // (each screen: the panels' observer speaks after the next frames, then their drawing ends)
    for (let y = 0; y < height; y += 400) { await page.evaluate((yy) => window.scrollTo(0, yy), y); await frames(page); await idle(page); }
    const fonts = await page.evaluate(() => {
      const out = { page: new Set(), panels: new Set(), families: new Set() };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n; (n = walker.nextNode());) {
        const el = n.parentElement;
        if (!n.textContent.trim() || !el || !el.getClientRects().length || el.closest('#experiment-panel')) continue;
        const s = getComputedStyle(el);
        const inPanel = !!el.closest('.panel .body');
        (inPanel ? out.panels : out.page).add(`${s.fontStyle === 'normal' ? '' : `${s.fontStyle} `}${s.fontWeight} ${s.fontSize}`);
        if (inPanel) out.families.add(s.fontFamily.split(',')[0].trim());
      }
      return { page: [...out.page], panels: [...out.panels], families: [...out.families], pageFamily: getComputedStyle(document.body).fontFamily.split(',')[0].trim() };
    });
    assert.ok(fonts.panels.length >= 3, `panel fonts: ${fonts.panels}`);
    // the panels' text is in the page's family (the warm-up resolves that family's strikes)
    assert.deepEqual(fonts.families, [fonts.pageFamily]);
    // the curve charts' canvas axes (uPlot: the theme's font) too
    const canvasFont = themeColors().font.match(/^(\d+px) (.*)$/);
    assert.equal(canvasFont[2].split(',')[0].trim(), fonts.pageFamily);
    const needed = [...fonts.panels, `400 ${canvasFont[1]}`].filter((f) => !fonts.page.includes(f));
    for (const f of needed) assert.ok(PLOT_FONTS.includes(f), `font "${f}" used by a panel is neither the page's nor in PLOT_FONTS`);
  } finally {
    await context.close();
  }
});
