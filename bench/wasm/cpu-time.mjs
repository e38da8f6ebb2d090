// Timing for the wasm benchmarks (wasm-vs-native.mjs, wasm-ab.mjs): medians of per-call process CPU
// time, batched so that a sample lasts >= 20 ms. The machine is shared, and CPU time is far less
// disturbed by other processes than wall time.
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };

// Median ms per call of f over `samples` batches, after warmupMs of calls (wasm tier-up), which
// also sizes the batch.
export function time(samples, f, warmupMs = 300) {
  let t0 = cpuMs(), calls = 0;
  while (cpuMs() - t0 < warmupMs || calls < 2) { f(); calls++; }
  const batch = Math.max(1, Math.floor(20 / ((cpuMs() - t0) / calls)));
  const ms = [];
  for (let r = 0; r < samples; r++) {
    t0 = cpuMs();
    for (let k = 0; k < batch; k++) f();
    ms.push((cpuMs() - t0) / batch);
  }
  return median(ms);
}
