// The native results the real-images view draws at once (native-results.js, made by
// scripts/real-native-results.mjs from the CLI's full-size runs): the table of a kind for a class pair,
// with a note saying what made it. The study keeps only the pair's task; the ladder and the phase diagram
// exist for the pair they ran (7 vs 9); another pair has none (its panel waits for Run).
import { NATIVE_RESULTS } from './native-results.js';

export function nativeResult(kind, classA, classB, results = NATIVE_RESULTS) {
  const r = results?.[kind];
  if (!r?.table) return null;
  const task = `${classA}v${classB}`;
  let table = r.table;
  if (kind === 'study') {
    const rows = (table.rows ?? []).filter((x) => x.task === task);
    if (!rows.length) return null;
    table = { ...table, rows };
  } else if ((table.settings?.classA ?? 7) !== classA || (table.settings?.classB ?? 9) !== classB) {
    return null;
  }
  const m = r.made ?? {};
  const cpu = m.cpuSeconds != null ? `, ${m.cpuSeconds >= 3600 ? `${(m.cpuSeconds / 3600).toFixed(1)} CPU hours` : m.cpuSeconds >= 120 ? `${Math.round(m.cpuSeconds / 60)} CPU minutes` : `${m.cpuSeconds} CPU seconds`}` : '';
  const note = `Native result, computed by the CLI on ${m.date ?? 'an unknown date'} (commit ${m.commit ?? '?'}${cpu}): ${m.command ?? `attnsvm experiment real-${kind}`}${m.reduced ? ` — ${m.reduced}` : ''}`;
  return { table, note };
}
