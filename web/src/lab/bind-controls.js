// The control panel's inputs and buttons wired to state changes (sync-controls.js writes the state
// back into them): the fields, the dataset editor (a CLI dataset file's JSON), the link, the theme
// and the downloads.
import { updateState, roundDataset, datasetShapeError } from './state.js';
import { NORM_REFS } from './scenarios.js';
import { datasetText } from './lab-export.js';
import { download } from '../plots/export.js';

function flash(btn, text) { const old = btn.textContent; btn.textContent = text; setTimeout(() => { btn.textContent = old; }, 1200); }

// bindControls($, { session, setMessage(key, text), theme (theme.js), exportPanel(id, fmt) })
export function bindControls($, { session: s, setMessage, theme, exportPanel }) {
  const setState = (patch) => s.setState(patch);
  $('ctl-scenario').onchange = (e) => setState({ scenario: e.target.value });
  const numeric = { seed: 'int', n: 'int', T: 'int', d: 'int', C: 'num', lr: 'num', p: 'num', iterations: 'int', headLr: 'num', svmP: 'num' };
  for (const [k] of Object.entries(numeric)) {
    const el = $(`ctl-${k}`);
    el.addEventListener('change', () => {
      const raw = el.value.trim();
      const { errors } = updateState(s.state, { [k]: raw === '' ? null : raw });
      el.setAttribute('aria-invalid', errors.length ? 'true' : 'false');
      setState({ [k]: raw === '' ? null : raw });
    });
  }
  for (const k of ['generator', 'attention', 'param', 'head', 'loss', 'optimizer', 'selection']) {
    $(`ctl-${k}`).onchange = (e) => setState({ [k]: e.target.value });
  }
  $('ctl-start').onchange = (e) => setState({ start: Number(e.target.value) });
  $('ctl-variant').onchange = (e) => setState({ variant: Number(e.target.value) });
  $('ctl-localCase').onchange = (e) => setState({ localCase: e.target.checked });
  $('ctl-joint').onchange = (e) => setState({ joint: e.target.checked });
  for (const r of NORM_REFS) {
    $(`ref-${r}`).onchange = () => setState({ refs: NORM_REFS.filter((x) => $(`ref-${x}`).checked) });
  }
  $('btn-json-apply').onclick = applyJson;
  $('btn-json-reset').onclick = () => { $('json-msg').textContent = ''; setState({ data: null }); };
  $('btn-copy').onclick = async () => {
    s.writeHash();
    try { await navigator.clipboard.writeText(location.href); flash($('btn-copy'), 'Copied'); } catch { flash($('btn-copy'), 'Copy failed'); setMessage('copy', `Copy this link: ${location.href}`); }
  };
  $('btn-theme').onclick = () => theme.toggle();
  $('btn-csv').onclick = () => download(`attnsvm-${s.state.scenario}-trace.csv`, s.trace.toCSV(refNames()), 'text/csv');
  $('btn-trace-json').onclick = () => download(`attnsvm-${s.state.scenario}-trace.json`, JSON.stringify(traceJSON()), 'application/json');
  $('btn-data-json').onclick = () => s.cfg && download(`attnsvm-${s.state.scenario}-dataset.json`, datasetText(s.cfg.dataset), 'application/json');
  document.querySelectorAll('[data-export]').forEach((b) => {
    b.onclick = async () => {
      const id = b.dataset.panel, fmt = b.dataset.export;
      try {
        const out = await exportPanel(id, fmt);
        if (fmt === 'svg') download(`attnsvm-${s.state.scenario}-${id}.svg`, out, 'image/svg+xml');
        else download(`attnsvm-${s.state.scenario}-${id}.png`, out);
      } catch (e) { setMessage('export', `Export of ${id} failed: ${e.message}`); }
    };
  });

  async function applyJson() {
    const text = $('ctl-json').value;
    let obj;
    try { obj = JSON.parse(text); } catch (e) {
      $('json-msg').textContent = `Not valid JSON: ${e.message}`;
      setMessage('json', `Dataset JSON: not valid JSON (${e.message}). The previous data is kept.`);
      return;
    }
    const reject = (message) => {
      $('json-msg').textContent = `Dataset JSON: ${message}`;
      setMessage('json', `Dataset JSON: ${message}. The previous data is kept.`);
    };
    const err = datasetShapeError(obj);
    if (err) return reject(err);
    let file;
    try { file = await datasetOfFile(obj); } catch (e) { return reject(e.message); }
    try { await s.client.validate(file.dataset, s.cfg?.model.param === 'prompt' ? 'seq2seq' : (s.cfg?.model.attention ?? 'cross')); } catch (e) {
      return reject(e.message);
    }
    $('json-msg').textContent = file.unused.length
      ? `Applied (not used here: ${file.unused.join(', ')}; the lab's controls set them).` : 'Applied.';
    setMessage('json', null);
    setState({ data: roundDataset(file.dataset, 6) });
  }

  // A CLI dataset file may hold more than the dataset (the core's datasetFileExtras: attention, W,
  // a scenario's model/train/init, ...): the lab takes the dataset's fields, names the extras it
  // does not use, and rejects any other key as the CLI does, listing the accepted ones.
  let vocabulary = null;
  async function datasetOfFile(obj) {
    vocabulary ??= await s.client.vocabulary();
    const fields = vocabulary.fields.dataset, extras = vocabulary.datasetFileExtras;
    const unknown = Object.keys(obj).filter((k) => !fields.includes(k) && !extras.includes(k));
    if (unknown.length) {
      throw new Error(`${unknown.join(', ')} ${unknown.length > 1 ? 'are not fields' : 'is not a field'}; ` +
        `expected one of ${[...fields, ...extras].join(', ')}`);
    }
    const dataset = Object.fromEntries(Object.entries(obj).filter(([k]) => fields.includes(k)));
    return { dataset, unused: Object.keys(obj).filter((k) => extras.includes(k)) };
  }

  // The trace's downloads.
  function refNames() { return Object.keys(s.trace.corrSeries().series); }
  function traceJSON() {
    const { state, cfg, refs } = s;
    return { state, scenario: state.scenario, config: cfg && { model: cfg.model, train: cfg.train, iterations: cfg.iterations },
      dataset: cfg?.dataset, references: Object.fromEntries(Object.entries(refs).map(([k, r]) => [k, { status: r.status, W: r.W, objective: r.objective, gap: r.gap, support: r.support }])),
      trace: s.trace.toJSON() };
  }
}
