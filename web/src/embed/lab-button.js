// The lab's "Embed" button: adds itself to the lab's toolbar (next to "Copy link") and opens a
// dialog with the two embed snippets of the current state (embed-code.js): an <iframe> and the
// <attnsvm-figure> element, with a choice of panels and caption. The state is read from the URL
// hash, which the lab keeps current on every change, so this module needs nothing from app.js.
// Loaded by web/index.html after the lab's own script.
import './lab-button.css';
import { decodeHash } from '../lab/state.js';
import { SCENARIO_INFO } from '../lab/scenarios.js';
import { embedCode } from './embed-code.js';
import { panelIds, panelTitle, DEFAULT_PANELS } from './params.js';

let installed = false;
function install() {
  const tools = document.querySelector('.top-tools');
  if (installed) return;
  if (!tools) { addEventListener('load', install, { once: true }); return; }
  installed = true;
  // the button is in the lab's markup (layout.js), so that the toolbar does not move when this loads
  let button = document.getElementById('btn-embed');
  if (!button) {
    button = document.createElement('button');
    button.type = 'button';
    button.id = 'btn-embed';
    button.textContent = 'Embed';
    button.title = 'Copy embed code for lecture notes (iframe or <attnsvm-figure>)';
    const copyLink = document.getElementById('btn-copy');
    if (copyLink) copyLink.after(button); else tools.prepend(button);
  }

  // The dialog is made on the first click: a closed dialog's form controls made as the page loads
  // were work in the lab's start-up (DOMContentLoaded) that nobody may ever need.
  let dialog = null, panelsBox = null, code = null;
  const $ = (sel) => dialog.querySelector(sel);
  const listPanels = (scenario) => panelsBox.replaceChildren(...panelIds(scenario).map((id) => {
    const label = document.createElement('label');
    label.className = 'check';
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.value = id;
    label.append(input, ` ${panelTitle(scenario, id)}`);
    return label;
  }));

  function refresh() {
    const { state } = decodeHash(location.hash);
    const panels = [...panelsBox.querySelectorAll('input:checked')].map((i) => i.value);
    code = embedCode(state, { panels, caption: $('#embed-caption').checked ? 'scenario' : undefined });
    $('#embed-iframe').value = code.iframe;
    $('#embed-element').value = code.element;
    $('#embed-preview').href = code.url;
  }

  function build() {
    dialog = document.createElement('dialog');
    dialog.className = 'embed-dialog';
    dialog.setAttribute('aria-labelledby', 'embed-dialog-title');
    dialog.innerHTML = `
      <form method="dialog">
        <h2 id="embed-dialog-title">Embed this figure</h2>
        <p class="hint">The current state (scenario, data, settings) as a live figure for course notes. It starts when
          scrolled into view and links back to the lab.</p>
        <fieldset><legend>Panels</legend><div class="embed-panels"></div></fieldset>
        <label class="check"><input type="checkbox" id="embed-caption"> include the scenario's caption</label>
        <label for="embed-iframe">iframe (any page, LMS, slides)</label>
        <textarea id="embed-iframe" rows="4" readonly spellcheck="false"></textarea>
        <div class="row"><button type="button" data-copy="embed-iframe">Copy iframe</button>
          <button type="button" data-copy="embed-iframe" data-with-script>Copy iframe + auto-height script</button></div>
        <label for="embed-element">Custom element (pages that allow scripts: one script tag, no iframe)</label>
        <textarea id="embed-element" rows="3" readonly spellcheck="false"></textarea>
        <div class="row"><button type="button" data-copy="embed-element">Copy element</button>
          <a id="embed-preview" target="_blank" rel="noopener">Preview the iframe ↗</a></div>
        <p class="status" role="status"></p>
        <div class="row end"><button value="close" class="primary">Close</button></div>
      </form>`;
    document.body.append(dialog);
    panelsBox = dialog.querySelector('.embed-panels');
    panelsBox.addEventListener('change', refresh);
    $('#embed-caption').addEventListener('change', refresh);
    dialog.querySelectorAll('[data-copy]').forEach((b) => b.addEventListener('click', async () => {
      const text = b.dataset.copy === 'embed-iframe' && b.hasAttribute('data-with-script')
        ? `${code.iframe}\n${code.resizeScript}` : $(`#${b.dataset.copy}`).value;
      try {
        await navigator.clipboard.writeText(text);
        $('.status').textContent = 'Copied.';
      } catch {
        $(`#${b.dataset.copy}`).select();
        $('.status').textContent = 'Copying is not allowed here: the text is selected, press Ctrl+C.';
      }
    }));
  }

  button.addEventListener('click', () => {
    if (!dialog) build();
    const { state } = decodeHash(location.hash);
    listPanels(state.scenario);
    const defaults = DEFAULT_PANELS[state.scenario] ?? ['plane', 'corr'];
    panelsBox.querySelectorAll('input').forEach((i) => { i.checked = defaults.includes(i.value); });
    $('#embed-caption').checked = false;
    $('.status').textContent = `Scenario: ${SCENARIO_INFO[state.scenario]?.title ?? state.scenario}.`;
    refresh();
    dialog.showModal();
  });
  window.__embedCode = { open: () => button.click(), get code() { return code; } };
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', install);
else install();
