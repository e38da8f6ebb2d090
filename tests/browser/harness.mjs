// Shared browser-test harness: serves the built site (dist/) with vite preview on a free port and
// drives Debian's Chromium through playwright-core. Collects console errors and warnings so tests
// can assert that a page ran clean.
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const artifactsDir = resolve(repoRoot, 'artifacts/screenshots');

// dist: another built site to serve (e.g. main's build, for a before/after measurement)
export async function serveSite({ port = 0, dist } = {}) {
  const server = await preview({
    configFile: resolve(repoRoot, 'vite.config.js'),
    logLevel: 'silent',
    ...(dist ? { build: { outDir: resolve(dist) } } : {}),
    preview: { host: '127.0.0.1', port, strictPort: false, open: false },
  });
  const url = server.resolvedUrls.local[0];
  return { url, close: () => new Promise((r) => server.httpServer.close(r)) };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// Opens a page and records console errors/warnings and uncaught page errors in `problems`.
export async function openPage(browser, url, { viewport = { width: 1280, height: 800 }, ...options } = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(url);
  return { page, context, problems };
}

export function screenshotPath(name) {
  mkdirSync(artifactsDir, { recursive: true });
  return resolve(artifactsDir, `${name}.png`);
}
