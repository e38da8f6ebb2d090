// <attnsvm-figure>: the embed as one self-contained script (built by vite.element.config.js into
// dist/attnsvm-figure.js: an IIFE with the CSS, the worker and the wasm module inlined). A page needs
// only
//
//   <script src="https://…/attnsvm-figure.js" defer></script>
//   <attnsvm-figure scenario="local-convergence" panels="corr,softmax"></attnsvm-figure>
//
// Attributes (all optional; changing one restarts the figure):
//   scenario   a lab scenario id (default paths2d)          seed      the data seed
//   panels     plane,softmax,current,corr,norms,spectrum,weights,readout (default per scenario)
//   state      a whole lab state as its URL hash ("s=paths2d&seed=3&opt=gd"); scenario/seed win
//   caption    text under the figure ("scenario": the scenario's own caption)
//   autoplay   "off" / "0": never start by itself       speed   iterations per displayed frame
//   lab        URL of the lab for "open in the lab" (default: index.html next to this script)
//
// Every figure of a page shares one engine in one Web Worker (created on first use, from a Blob;
// the wasm is inlined as gzip + base64 and unpacked in the worker with DecompressionStream). The
// styles live in the element's shadow root (a constructed stylesheet: no inline <style>, so a
// style-src policy without 'unsafe-inline' is fine). Needed from a Content-Security-Policy:
// script-src 'wasm-unsafe-eval' blob: and worker-src blob: (never 'unsafe-eval').
// Two scenarios' figures are scripts of their own beside this one, fetched only by a figure of
// theirs (figure-scripts.js): hierarchy (attnsvm-figure-hierarchy.js) and real images
// (attnsvm-figure-real.js, which also need the site's data/ and the experiments build in wasm/).
//
// An attribute it does not know, or a value it cannot use, is the author's mistake: the figure runs
// with the defaults, warns once in the console (each attribute, its value and what it accepts) and
// shows a small notice the reader can dismiss.
//
// Like the iframe embed it builds its frame (its size reserved) at once and starts (the engine's
// run, the first drawing) when it comes near the view, or in the background once the page is idle,
// one figure at a time (start-queue.js); it plays when scrolled into view, pauses when out of view,
// and never autoplays for readers who prefer reduced motion. Properties for scripts and tests: ready, playing,
// done, started, iteration, maxIterations, correlations, info(); methods play(), pause(), reset().
// It fires 'attnsvm:status' events ({detail: info}) on start, pause and completion.
import './figure.css';
// the engine's worker (real images: a worker of their own, in their script: real-script.js)
import EngineWorker from '../engine/worker.js?worker&inline';
import moduleSource from 'virtual:attnsvm-module-source';
import { createEngineClient } from '../lab/engine-client.js';
import { createFigure } from './figure.js';
import { parseEmbedHash, labHash, problemsWarning } from './params.js';
import { closestName } from '../lab/state.js';
import { noticeText } from './notice.js';
import { createStarter } from './start-queue.js';
import { setPathEngine } from '../path/embed-path.js';
import { createWorkerEngine } from '../engine/worker-engine.js';
import { loadFigureScript } from './figure-scripts.js';

// Replaced at build time by the bundle's CSS (vite.element.config.js).
const CSS = '__ATTNSVM_FIGURE_CSS__';
const HOST_CSS = ':host{display:block;margin:1em 0}:host([hidden]){display:none}';

const scriptSrc = document.currentScript?.src;
const BASE = scriptSrc || document.baseURI;

let sharedClient = null;
const engine = () => (sharedClient ??= createEngineClient({ worker: new EngineWorker(), moduleSource }));
// the path panel's engine (web/src/path/embed-path.js): a worker of its own, from the inlined copy
setPathEngine(() => createWorkerEngine({ worker: new EngineWorker(), moduleSource }));

let sheet = null;
function adoptStyles(shadow) {
  try {
    sheet ??= new CSSStyleSheet();
    if (!sheet.cssRules.length) sheet.replaceSync(HOST_CSS + CSS);
    shadow.adoptedStyleSheets = [sheet];
  } catch {
    const style = document.createElement('style'); // old browsers: needs style-src 'unsafe-inline'
    style.textContent = HOST_CSS + CSS;
    shadow.append(style);
  }
}

// The attributes of the element, and the hash keys they set (the others come from `state`).
const ATTRIBUTES = ['scenario', 'panels', 'seed', 'state', 'caption', 'autoplay', 'speed', 'lab'];
const ATTRIBUTE_OF_KEY = { s: 'scenario', seed: 'seed', speed: 'speed', panels: 'panels', caption: 'caption', autoplay: 'autoplay' };
// Attributes any element may carry (HTML's global attributes, data-*, aria-*, event handlers).
const GLOBAL_ATTRIBUTES = ['id', 'class', 'style', 'title', 'hidden', 'lang', 'dir', 'tabindex', 'slot', 'part', 'role', 'inert',
  'translate', 'autofocus', 'accesskey', 'contenteditable', 'draggable', 'spellcheck', 'nonce', 'is', 'popover', 'exportparts', 'itemprop'];
const isGlobal = (name) => GLOBAL_ATTRIBUTES.includes(name) || /^(data-|aria-|on)/.test(name);

const visibleOf = (e) => e.isIntersecting && (e.intersectionRatio >= 0.25 || e.intersectionRect.height >= Math.min(200, innerHeight / 2));
const io = new IntersectionObserver((entries) => {
  for (const e of entries) e.target.__attnsvmSetVisible?.(visibleOf(e));
}, { threshold: [0, 0.1, 0.25, 0.5, 1] });
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
// the element figures of a page start near the view or when idle, one at a time (start-queue.js)
const starter = createStarter((el) => el.__attnsvmBegin?.());

class AttnsvmFigure extends HTMLElement {
  static get observedAttributes() { return ['scenario', 'panels', 'seed', 'state', 'caption', 'autoplay', 'speed', 'lab']; }

  constructor() {
    super();
    this._figure = null;
    this._pending = false;
    this._visible = false;
    this.__attnsvmSetVisible = (v) => { this._visible = v; this._figure?.setVisible(v); };
    this.__attnsvmBegin = () => this._figure?.start?.();
  }

  connectedCallback() {
    if (!this.shadowRoot) {
      const shadow = this.attachShadow({ mode: 'open' });
      adoptStyles(shadow);
      this._root = document.createElement('div');
      shadow.append(this._root);
    }
    this._schedule();
    io.observe(this);
  }

  disconnectedCallback() {
    io.unobserve(this);
    starter.unwatch(this);
    this._figure?.destroy();
    this._figure = null;
  }

  attributeChangedCallback() { if (this.isConnected) this._schedule(); }

  _schedule() {
    if (this._pending) return;
    this._pending = true;
    queueMicrotask(() => { this._pending = false; if (this.isConnected) this._start(); });
  }

  // The settings: the `state` hash, then the single attributes on top of it.
  settings() {
    const params = new URLSearchParams((this.getAttribute('state') ?? '').replace(/^#/, ''));
    const put = (key, attr) => { const v = this.getAttribute(attr); if (v !== null && v !== '') params.set(key, v); };
    put('s', 'scenario');
    put('seed', 'seed');
    put('speed', 'speed');
    put('panels', 'panels');
    put('caption', 'caption');
    put('autoplay', 'autoplay');
    const s = parseEmbedHash(params.toString());
    // attributes the element does not know (a misspelled one would otherwise be ignored silently)
    for (const name of this.getAttributeNames()) {
      if (ATTRIBUTES.includes(name) || isGlobal(name)) continue;
      const near = closestName(name, ATTRIBUTES);
      s.problems.push({ param: name, value: this.getAttribute(name), accepted: ATTRIBUTES.join(', '), attribute: true,
        message: `unknown attribute "${name}"${near ? ` (did you mean "${near}"?)` : ''}` });
    }
    return s;
  }

  _start() {
    this._figure?.destroy();
    const s = this.settings();
    this._problems = s.problems;
    if (s.problems.length) {
      const where = this.id ? `#${this.id}` : `scenario="${this.getAttribute('scenario') ?? ''}"`;
      console.warn(problemsWarning(s.problems, { who: `<attnsvm-figure ${where}>`, name: (param) => this._name({ param }) }));
    }
    const dark = document.documentElement.dataset.theme === 'dark';  // the plots follow the page's theme
    this._root.className = dark ? 'af-dark' : '';
    const lab = this.getAttribute('lab');
    const labUrl = new URL(`${lab ?? 'index.html'}${labHash(s.state)}`, lab ? document.baseURI : BASE).href;
    this._figure = createFigure(this._root, {
      client: s.state.scenario === 'real-images' ? null : engine, // real images: workers of its own
      state: s.state,
      panels: s.panels,
      caption: s.caption,
      labUrl,
      autoplay: s.autoplay && !reducedMotion.matches,
      notice: noticeText(s.problems.map((p) => ({ ...p, param: this._name(p) }))),
      // real images: their code a script of its own next to this one (figure-scripts.js), the
      // experiments build and the data next to it too (fetched only then)
      loadRealFigure: () => loadFigureScript(new URL('attnsvm-figure-real.js', BASE).href, '__attnsvmRealFigure', 'real-images figure'),
      realBase: BASE,
      // the hierarchy's code: a script of its own next to this one (figure-scripts.js)
      loadHierarchyFigure: () => loadFigureScript(new URL('attnsvm-figure-hierarchy.js', BASE).href, '__attnsvmHierarchyFigure', 'hierarchy figure'),
      // the hierarchy: the experiments build next to this script, in a worker of its own
      experimentsEngine: () => createWorkerEngine({ worker: new EngineWorker(), baseUrl: new URL('wasm/', BASE).href, moduleName: 'attnsvm-experiments' }),
      onUpdate: (fig) => this.dispatchEvent(new CustomEvent('attnsvm:status', { detail: fig.info() })),
      deferStart: true,
    });
    if (this._visible) this._figure.setVisible(true);
    starter.watch(this);
  }

  // A problem's parameter as the author wrote it: an attribute, or a key of the `state` attribute.
  _name(p) {
    if (p.attribute || p.param === null) return p.param;
    return ATTRIBUTE_OF_KEY[p.param] ?? (['theme', 'id'].includes(p.param) ? p.param : `state: ${p.param}`);
  }
  get problems() { return (this._problems ?? []).map((p) => ({ ...p, param: this._name(p) })); }

  info() { return this._figure?.info() ?? null; }
  get ready() { return this.info()?.ready ?? false; }
  get playing() { return this.info()?.playing ?? false; }
  get done() { return this.info()?.done ?? false; }
  get started() { return this.info()?.started ?? false; }
  get iteration() { return this.info()?.iteration ?? 0; }
  get maxIterations() { return this.info()?.maxIterations ?? null; }
  get correlations() { return this.info()?.correlations ?? {}; }
  play() { this._figure?.play(); }
  pause() { this._figure?.pause(); }
  reset() { return this._figure?.reset(); }
}

if (!customElements.get('attnsvm-figure')) customElements.define('attnsvm-figure', AttnsvmFigure);
// How many engines (workers) this page made: the test of "several figures share one worker".
window.__attnsvmFigure = { get engines() { return sharedClient ? 1 : 0; } };
