// The README is the front door (issue 24): it starts with the two commands exactly as CI runs them,
// shows the lab's picture, stays short (<= 12 KB), and every link in it and in docs/ and CHANGELOG.md
// leads somewhere: a relative link to a file of the repository, an anchor to a heading of the target
// (GitHub's slugs), an image that exists. External links are checked for their form only (no network).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const docs = ['README.md', 'CHANGELOG.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

// GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'.
const slug = (h) => h.trim().toLowerCase().replace(/<[^>]+>/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
function anchors(file) {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map(), out = new Set();
  for (const m of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const s = slug(m[1].replace(/`/g, ''));
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    out.add(n ? `${s}-${n}` : s);
  }
  return out;
}
// Markdown links and images outside code blocks and code spans: [text](target) / ![alt](target).
function links(text) {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '``');
  return [...prose.matchAll(/!?\[(?:[^\]]|\][^(])*?\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

for (const doc of docs) {
  test(`links of ${doc} lead somewhere`, () => {
    const file = join(root, doc);
    const bad = [];
    for (const target of links(readFileSync(file, 'utf8'))) {
      if (/^(https?:|mailto:)/.test(target)) { if (!/^(https?:\/\/[^\s/]+\.[^\s]+|mailto:.+@.+)/.test(target)) bad.push(`${target}: malformed`); continue; }
      const [path, anchor] = target.split('#');
      const dest = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
      if (!dest.startsWith(root) || !existsSync(dest)) { bad.push(`${target}: no such file (${relative(root, dest)})`); continue; }
      if (anchor !== undefined && statSync(dest).isFile() && dest.endsWith('.md') && !anchors(dest).has(anchor)) {
        bad.push(`${target}: no heading "#${anchor}" in ${relative(root, dest)}`);
      }
    }
    assert.deepEqual(bad, []);
  });
}

test('the README: the two commands near the top, the lab\'s picture, at most 12 KB', () => {
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  assert.ok(Buffer.byteLength(text) <= 12 * 1024, `README is ${Buffer.byteLength(text)} bytes`);
  const top = text.split('\n').slice(0, 30).join('\n');
  assert.match(top, /^## The two commands$/m);
  assert.match(top, /^npm start\b/m, 'npm start in the first 30 lines');
  assert.match(top, /^npm test\b/m, 'npm test in the first 30 lines');
  assert.match(text.split('\n').slice(0, 5).join('\n'), /!\[[^\]]+\]\(docs\/figures\/lab\.png\)/, 'the lab\'s picture at the top');
  // the commands are this repository's: npm start serves the lab, npm test runs the suite, CI runs npm test
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.equal(pkg.scripts.start, 'bash scripts/start.sh');
  assert.equal(pkg.scripts.test, 'bash scripts/test.sh');
  assert.match(readFileSync(join(root, '.ci/run'), 'utf8'), /^npm test$/m);
});
