// Main-thread tasks of a page, from a Chromium trace (browser.startTracing), for the responsiveness
// bar of the "Real images" compare mode: every task of the renderer's main thread with its wall
// time (dur) and its CPU time (tdur, the time the thread actually ran). On a shared machine the
// wall time of a task includes the time the thread waited for a core (a 4 ms task took 40 ms of
// wall time at load 15 on 2 cores), so both are reported; the CPU time is what the page's code
// and the browser's rendering cost.
import { readFileSync } from 'node:fs';

export const TRACE_CATEGORIES = ['disabled-by-default-devtools.timeline', 'devtools.timeline', 'blink.user_timing'];

// tasksBetween(tracePath, fromMark, toMark) -> [{ wallMs, cpuMs, parts: {event name: longest ms} }]:
// the tasks of the page renderer's main thread that start between the page's performance.mark()s
// `fromMark` and `toMark` (parts only for tasks over 30 ms of wall time: what they spent it on).
export function tasksBetween(tracePath, fromMark, toMark) {
  const trace = JSON.parse(readFileSync(tracePath, 'utf8'));
  const events = trace.traceEvents ?? trace;
  const markTs = (name) => {
    const e = events.find((x) => x.name === name && String(x.cat).includes('blink.user_timing'));
    if (!e) throw new Error(`the trace has no performance.mark '${name}'`);
    return e.ts;
  };
  const from = markTs(fromMark), to = markTs(toMark);
  const mains = new Set();
  for (const e of events) if (e.name === 'thread_name' && e.args?.name === 'CrRendererMain') mains.add(`${e.pid}:${e.tid}`);
  const onMain = (e) => mains.has(`${e.pid}:${e.tid}`) && e.ph === 'X';
  const tasks = events.filter((e) => onMain(e) && e.name === 'RunTask' && e.ts >= from && e.ts <= to);
  const inner = events.filter((e) => onMain(e) && e.name !== 'RunTask' && e.dur > 1000 && e.ts >= from && e.ts <= to);
  return tasks.map((t) => {
    const out = { wallMs: t.dur / 1000, cpuMs: (t.tdur ?? t.dur) / 1000, parts: {} };
    if (t.dur > 30000) {
      for (const e of inner) {
        if (e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur) out.parts[e.name] = Math.max(out.parts[e.name] ?? 0, Number((e.dur / 1000).toFixed(1)));
      }
    }
    return out;
  });
}
