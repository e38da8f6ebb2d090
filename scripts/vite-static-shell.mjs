// vite plugins for the pages' first paint (issue 24):
//   staticShell()  writes the lab's markup (web/src/lab/layout.js, and the real-images view's,
//                  web/src/real/layout.js) into index.html where it says <!--attnsvm:lab-shell-->,
//                  with prepaint.js as an inline script: the first paint shows the lab's frame
//                  with every panel's space reserved, before any module has run. The real-images
//                  view's frame comes right after the top bar, before the lab's: only one of the two
//                  shows (html[data-view], real.css), and a page opened on the view has its caption
//                  (its largest paint) in the first ~9 KB of the body instead of after the lab's 35 KB
//                  (a paint before the parser got there showed the caption only after the lab's
//                  module had run: LCP 1.7 s against FCP 1.1 s). It is an inert <template> that
//                  prepaintView (an inline script after it) puts in place only for a page opened on
//                  the view: the lab's page has none of its elements and form controls (round 8);
//   inlineCss()    replaces a built page's own stylesheet <link> by a <style> with its text (one
//                  render-blocking request less; the pages' CSS is a few KB gzipped).
import { labShellHtml, PREPAINT_MARK } from '../web/src/lab/layout.js';
import { prepaint, prepaintData, prepaintHead, prepaintView, ownViews } from '../web/src/lab/prepaint.js';
import { realLayoutHtml } from '../web/src/real/layout.js';
import { pathSectionHtml, PATH_SHELL_MARK } from '../web/src/path/path-layout.js';
import { SCENARIO_INFO, SCENARIO_ORDER } from '../web/src/lab/scenarios.js';

const MARKER = '<!--attnsvm:lab-shell-->';
const LAB_LAYOUT = '<div class="layout">';

export function staticShell() {
  return {
    name: 'attnsvm-static-shell',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        if (!html.includes(MARKER)) return html;
        const options = SCENARIO_ORDER.map((id) => `<option value="${id}">${SCENARIO_INFO[id].title}</option>`).join('');
        const script = `<script>(${prepaint.toString()})(${JSON.stringify(prepaintData())});</script>`;
        const head = `<script>(${prepaintHead.toString()})(${JSON.stringify(ownViews())});</script>`;
        const lab = labShellHtml().replace(PREPAINT_MARK, () => script);
        const at = lab.indexOf(LAB_LAYOUT);
        if (at < 0) throw new Error(`static shell: no ${LAB_LAYOUT} in web/src/lab/layout.js's markup (the real-images view goes before it)`);
        const [view] = ownViews();
        const real = `<template id="view-${view}">${realLayoutHtml(options)}</template>\n  <script>(${prepaintView.toString()})(${JSON.stringify(view)});</script>`;
        return html.replace(MARKER, () => `${lab.slice(0, at)}${real}\n  ${lab.slice(at)}`)
          .replace(PATH_SHELL_MARK, () => pathSectionHtml())  // (the regularization path view, web/src/path/)
          .replace('</title>', () => `</title>\n  ${head}`);
      },
    },
  };
}

export function inlineCss() {
  return {
    name: 'attnsvm-inline-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet"[^>]*href="\.\/(assets\/[^"]+\.css)"[^>]*>/g, (tag, file) => {
          const asset = bundle[file];
          if (!asset || asset.type !== 'asset') return tag;
          // (a relative url() in the sheet is relative to its folder, assets/, not the page's: none is
          // left since the formulas are SVG (KaTeX's fonts were the last), so one is an error, not rebased)
          const css = String(asset.source);
          const relative = css.match(/url\((['"]?)(?![a-z]+:|\/|#)[^)]*\)/i);
          if (relative) throw new Error(`inlineCss: ${file} has a relative ${relative[0]}: rebase it onto the page's folder or keep the sheet a <link>`);
          return `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`;
        });
      },
    },
  };
}
