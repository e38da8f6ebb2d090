// One Chromium and one static server of the built site (dist/) for a whole run of browser test files:
// node's test runner gives each file a process of its own, and each starts both, about 1.2 CPU-s a file
// (docs/BENCHMARKS.md, "Where npm test's time goes"; Chromium's start and end alone are about 2.9 CPU-s).
// scripts/test.sh starts it for the functional browser tests (browser_functional_tests; first-run's
// "handedOver: undefined" with it was the test's race, fixed in 95c09d1: docs/BENCHMARKS.md, "The
// functional browser tests' CPU"). Writes
// {"ws": <playwright endpoint>, "url": <site>} to the file given as its argument when both are up,
// then serves until it is killed. tests/browser/harness.mjs connects to them when ATTNSVM_BROWSER_WS
// and ATTNSVM_SITE_URL are set; otherwise every file starts its own, as before.
import { writeFileSync, renameSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, serveSite } from '../tests/browser/harness.mjs';

const out = process.argv[2];
if (!out) throw new Error('usage: node scripts/browser-host.mjs OUT.json');
const server = await chromium.launchServer({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
const site = await serveSite({ own: true });
writeFileSync(`${out}.tmp`, JSON.stringify({ ws: server.wsEndpoint(), url: site.url }));
renameSync(`${out}.tmp`, out);  // the reader never sees half a file
const stop = async () => { await site.close(); await server.close(); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
