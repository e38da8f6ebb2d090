// "Copy embed code": the two snippets that embed the lab's current state in another page.
//
//   embedCode(state, options?) -> { url, iframe, resizeScript, element, labUrl }
//     state     the lab's state (web/src/lab/state.js)
//     options   { panels?: string[] (default: the scenario's, see params.js DEFAULT_PANELS),
//                 caption?: string ('scenario' = the scenario's caption), id?: string,
//                 base?: URL of the folder holding index.html / embed.html / attnsvm-figure.js
//                 (default: the current page's folder), height?: px (initial iframe height) }
//
//   iframe        <iframe src=".../embed.html#s=...&panels=..."> for hosts that allow iframes only
//                 (LMS pages, slide decks); works without any script on the host page
//   resizeScript  optional: a <script> for the host page that sets each iframe's height from the
//                 figure's {type: 'attnsvm:resize', height, id} messages
//   element       <script src=".../attnsvm-figure.js" defer> + <attnsvm-figure ...> for hosts that
//                 allow scripts (static sites, Jupyter Book): no iframe, sizes with the text
import { embedHash, labHash, DEFAULT_PANELS } from './params.js';
import { SCENARIO_INFO } from '../lab/scenarios.js';
import { encodeHash } from '../lab/state.js';

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const RESIZE_SCRIPT = `<script>
addEventListener('message', function (e) {
  var d = e.data;
  if (!d || d.type !== 'attnsvm:resize') return;
  document.querySelectorAll('iframe').forEach(function (f) {
    if (f.contentWindow === e.source) f.style.height = d.height + 'px';
  });
});
</script>`;

export function embedCode(state, options = {}) {
  const here = typeof location !== 'undefined' ? location.href : 'http://localhost/';
  const base = new URL(options.base ?? './', here);
  base.hash = ''; base.search = '';
  const panels = options.panels?.length ? options.panels : (DEFAULT_PANELS[state.scenario] ?? ['plane', 'corr']);
  const title = SCENARIO_INFO[state.scenario]?.title ?? state.scenario;
  const url = new URL(`embed.html${embedHash(state, { panels, caption: options.caption, id: options.id })}`, base).href;
  // a first guess at ~720 px wide (two panels per row); the resize messages correct it
  const height = options.height ?? ((panels.includes('plane') ? 500 : 360) + (Math.ceil(panels.length / 2) - 1) * 320);
  const iframe = `<iframe src="${esc(url)}" title="attnsvm: ${esc(title)}" width="100%" height="${height}" ` +
    `style="border:0;max-width:100%" loading="lazy"></iframe>`;
  // The element: a plain scenario (+ seed) reads best as attributes; anything else goes in `state`.
  const hash = encodeHash(state).replace(/^#/, '');
  const params = new URLSearchParams(hash);
  const attrs = [];
  const simple = [...params.keys()].every((k) => k === 's' || k === 'seed');
  if (simple) {
    attrs.push(`scenario="${esc(state.scenario)}"`);
    if (params.has('seed')) attrs.push(`seed="${esc(params.get('seed'))}"`);
  } else {
    attrs.push(`state="${esc(hash)}"`);
  }
  attrs.push(`panels="${esc(panels.join(','))}"`);
  if (options.caption) attrs.push(`caption="${esc(options.caption)}"`);
  const element = `<script src="${esc(new URL('attnsvm-figure.js', base).href)}" defer></script>\n` +
    `<attnsvm-figure ${attrs.join(' ')}></attnsvm-figure>`;
  return { url, iframe, resizeScript: RESIZE_SCRIPT, element, labUrl: new URL(`index.html${labHash(state)}`, base).href };
}
