// Minimal shell (replaced by the lab): loads the wasm module and shows a live computation.
const status = document.getElementById('status');
function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src; s.onload = resolve; s.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.append(s);
  });
}
try {
  await loadScript(new URL('./wasm/attnsvm.js', document.baseURI).href);
  const M = await globalThis.createAttnsvmModule({ locateFile: (p) => new URL(`./wasm/${p}`, document.baseURI).href });
  status.textContent = `engine: ${M.version()}`;
  window.__ready = true;
} catch (e) {
  status.textContent = `error: ${e.message}`;
  window.__error = e.message;
}
