// Readout: the SVM certificates (objective, lower bound, gap, violation) per reference norm and
// the verdict on the current selection with its support tokens. HTML (a definition table), and an
// SVG rendering of the same text for export.
// createReadout(container) -> { update(data), svg() }
// data: { rows: [{ norm, status, objective, lowerBound, gap, maxViolation, iterations, message }],
//         verdict: { label, kind: 'global' | 'local' | 'neither' | 'infeasible', explanation },
//         selection: number[], optimal: number[], support: number[][], iteration, note }
import { themeColors, seqColor } from './theme.js';

const fmt = (v, digits = 4) => (Number.isFinite(v) ? (Math.abs(v) >= 1e-3 && Math.abs(v) < 1e5 ? Number(v.toPrecision(digits)).toString() : v.toExponential(1)) : '—');

// gaps and violations: tiny values (round-off, either sign) print as "< 1e-12"
const small = (v) => (Number.isFinite(v) ? (Math.abs(v) < 1e-12 ? '< 1e-12' : fmt(v, 2)) : '—');

export function createReadout(container) {
  const root = document.createElement('div');
  root.className = 'readout';
  container.append(root);
  let data = null;

  let lastHtmlKey = null;
  function render() {
    if (!data) return;
    const key = JSON.stringify(data);
    if (key === lastHtmlKey) return;          // unchanged: no DOM work
    lastHtmlKey = key;
    const rows = data.rows.map((r) => `<tr><th scope="row">${r.label}</th><td>${r.status === 'optimal' ? fmt(r.objective) : r.status}</td>
      <td>${fmt(r.lowerBound)}</td><td>${small(r.gap)}</td><td>${small(r.maxViolation)}</td></tr>`).join('');
    const v = data.verdict;
    const seqs = (data.selection ?? []).map((a, i) => {
      const sup = data.support?.[i] ?? [];
      const label = data.unitLabel?.[i] ?? `seq ${i}`;
      const opt = data.optimal?.length === data.selection.length ? ` (optimal ${data.optimal[i]})` : '';
      return `<li><span class="swatch" data-seq="${data.unitSeq?.[i] ?? i}"></span>${label}: selects <b>${a}</b>` +
        `${opt}${data.support ? `; support tokens ${sup.length ? `{${sup.join(', ')}}` : '∅'}` : ''}</li>`;
    }).join('');
    root.innerHTML = `
      <p class="verdict verdict-${v?.kind ?? 'none'}" data-verdict="${v?.kind ?? ''}"><strong>${v?.label ?? '…'}</strong>${v?.explanation ? ` — ${escapeHtml(v.explanation)}` : ''}</p>
      <table class="cert"><caption>${escapeHtml(data.certTitle ?? 'Att-SVM certificates')}${data.selectionLabel ? ` for ${escapeHtml(data.selectionLabel)}` : ''}</caption>
        <thead><tr><th scope="col">norm</th><th scope="col">objective (norm)</th><th scope="col">lower bound</th><th scope="col">rel. gap</th><th scope="col">max violation</th></tr></thead>
        <tbody>${rows}</tbody></table>
      <ul class="seqs">${seqs}</ul>
      ${data.note ? `<p class="note">${escapeHtml(data.note)}</p>` : ''}`;
    // colours through the CSSOM, not style="" attributes: allowed by a style-src without 'unsafe-inline' (embeds)
    root.querySelectorAll('.swatch[data-seq]').forEach((s) => { s.style.background = seqColor(Number(s.dataset.seq)); });
  }

  return {
    root,
    update(next) { data = next; render(); },
    resize() {},
    svg() {
      const c = themeColors();
      const lines = [];
      if (data?.verdict) lines.push(`${data.verdict.label}${data.verdict.explanation ? ' — ' + data.verdict.explanation : ''}`);
      for (const r of data?.rows ?? []) lines.push(`${r.label}: objective ${fmt(r.objective)}, lower bound ${fmt(r.lowerBound)}, gap ${fmt(r.gap, 2)}, violation ${fmt(r.maxViolation, 2)}`);
      (data?.selection ?? []).forEach((a, i) => lines.push(`${data.unitLabel?.[i] ?? `seq ${i}`}: selects ${a}; support {${(data.support?.[i] ?? []).join(', ')}}`));
      // wrap long lines at about 100 characters
      const wrapped = lines.flatMap((l) => {
        const out = [];
        let cur = '';
        for (const w of l.split(' ')) {
          if ((cur + ' ' + w).length > 100 && cur) { out.push(cur); cur = '   ' + w; } else cur = cur ? `${cur} ${w}` : w;
        }
        if (cur) out.push(cur);
        return out;
      });
      lines.length = 0;
      lines.push(...wrapped);
      const width = 700, height = 20 + lines.length * 18;
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.setAttribute('width', width); svg.setAttribute('height', height);
      lines.forEach((l, k) => {
        const t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
        t.setAttribute('x', 10); t.setAttribute('y', 22 + k * 18); t.setAttribute('fill', c.fg);
        t.textContent = l;
        svg.append(t);
      });
      return svg;
    },
  };
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[ch]));
}
