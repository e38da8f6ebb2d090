// vite bundles web/ (ES modules) into dist/ with relative asset paths, so the static output works
// from any host and sub-path. Every .html page under web/ (outside public/) is an entry.
import { defineConfig } from 'vite';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, 'web');

function htmlPages(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'public' || name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return htmlPages(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

export default defineConfig({
  root,
  base: './',
  publicDir: 'public',
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: Object.fromEntries(htmlPages(root).map((p) => [relative(root, p).replace(/\.html$/, ''), p])),
    },
  },
  worker: { format: 'iife' },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
