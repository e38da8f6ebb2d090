// The state written into the control panel (controls.js says what each control shows): the
// fields' values, the options that apply to the scenario, and its caption and formulas.
import { NORM_REFS, SCENARIO_INFO } from './scenarios.js';
import { formulaSlot } from './layout.js';
import { putFormulas } from './formulas.js';
import { isMD } from './config.js';
import { datasetText } from './lab-export.js';
import { CONTROL_IDS, controlValues, jointChecked, optionShown, dataHint, dataNote, variantLabels } from './controls.js';
import { idleThen } from './ready.js';
import { setText, setProp } from './dom-write.js';

// Writes only what differs (dom-write.js): the module's first sync writes what the page's markup and
// prepaint.js already show, and a write of the same value still invalidates style or layout (in the
// module's start-up task, then laid out again by the browser's form scan at DOMContentLoaded).
const setValue = (el, v) => setProp(el, 'value', v);

// createControlSync($, { session, readiness (ready.js), updatePlayerUI() }) -> syncControls({ ifChanged })
// (ifChanged: nothing is written if the state and the configuration are those written last, e.g.
// the first run's start, whose state the page's module wrote a moment before)
export function createControlSync($, { session: s, readiness, updatePlayerUI }) {
  let written = null;
  function syncControls({ ifChanged = false } = {}) {
    if (ifChanged && written && written.state === s.state && written.cfg === s.cfg) { updatePlayerUI(); return; }
    written = { state: s.state, cfg: s.cfg };
    const info = SCENARIO_INFO[s.state.scenario];
    setValue($('ctl-scenario'), s.state.scenario);
    setValue($('ctl-speed'), String(s.state.speed));
    const eff = controlValues(s.state, s.cfg, s.lpP());
    syncInputs(eff);
    syncOptions(info, eff);
    if (document.activeElement !== $('ctl-json') && s.cfg) setValue($('ctl-json'), datasetText(s.cfg.dataset));
    syncCaption(info);
    updatePlayerUI();
  }

  // The fields (except the one being edited), the check boxes and the reference norms.
  function syncInputs(eff) {
    for (const k of CONTROL_IDS) {
      const el = $(`ctl-${k}`);
      if (el && document.activeElement !== el && eff[k] !== undefined) setValue(el, String(eff[k]));
    }
    setProp($('ctl-localCase'), 'checked', !!s.state.localCase);
    setProp($('ctl-joint'), 'checked', jointChecked(s.state, s.cfg));
    const refList = s.effectiveRefs();
    for (const r of NORM_REFS) setProp($(`ref-${r}`), 'checked', refList.includes(r));
  }

  // The options that apply to this scenario, the data's hint and the variant's labels.
  function syncOptions(info, eff) {
    document.querySelectorAll('[data-opt]').forEach((el) => setProp(el, 'hidden', !optionShown(info, s.state, el.dataset.opt)));
    setProp(document.querySelector('[data-show="md"]'), 'hidden', !isMD(eff.optimizer));
    setProp(document.querySelector('[data-show="joint"]'), 'hidden', !$('ctl-joint').checked);
    setValue($('ctl-generator'), s.state.generator);
    setText($('data-hint'), dataHint(s.state));
    const variantSel = $('ctl-variant');
    variantLabels(s.state.scenario).forEach((label, i) => setProp(variantSel.options[i], 'text', label));
  }

  function syncCaption(info) {
    setText($('sc-title'), info.title);
    setText($('sc-caption'), info.caption);
    const dn = dataNote(s.state);
    setText($('sc-datanote'), dn);
    setProp($('sc-datanote'), 'hidden', !dn);
    const fdiv = $('sc-formulas');
    if (fdiv.dataset.for !== s.state.scenario) {
      fdiv.dataset.for = s.state.scenario;
      renderFormulas(fdiv, s.state.scenario);
    }
  }

  // The formulas (SVG made at build time, formulas.js) load after the first frame, a small chunk per
  // scenario, into the intro's fixed-height slots: they use no font or stylesheet, and lay out only
  // their slots, so they move nothing on the page.
  function renderFormulas(div, scenario) {
    const formulas = SCENARIO_INFO[scenario].formulas;
    if (div.children.length !== formulas.length) div.innerHTML = formulaSlot.repeat(formulas.length);
    else for (const slot of div.children) if (slot.firstChild) slot.replaceChildren();  // (the last scenario's)
    setProp(div, 'hidden', !formulas.length);
    if (!formulas.length) return;  // (a scenario without formulas, e.g. real images: no request)
    const put = () => putFormulas(div, scenario, () => div.dataset.for === scenario).catch(() => {});
    if (readiness.firstFrameAt === null) readiness.firstFrame.then(() => idleThen(put)); else put();
  }

  return syncControls;
}
