// The architecture's rules (docs/ARCHITECTURE.md, scripts/check-layout.mjs) hold on the repository,
// and the checker catches each kind of violation: on a small tree built here, each rule broken once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { checkLayout } from '../../scripts/check-layout.mjs';

const root = resolve(import.meta.dirname, '../..');

test('the repository keeps its layers, its include direction and a true map', () => {
  assert.deepEqual(checkLayout(root), []);
});

function tree(files) {
  const dir = mkdtempSync(join(tmpdir(), 'attnsvm-layout-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
const good = {
  'core/include/attnsvm/attnsvm.hpp': '#include "attnsvm/model/model.hpp"\n',
  'core/include/attnsvm/base/types.hpp': '#include <Eigen/Dense>\n',
  'core/include/attnsvm/model/model.hpp': '#include "attnsvm/base/types.hpp"\n',
  'core/include/attnsvm/experiments/scenarios.hpp': '#include "attnsvm/model/model.hpp"\n',
  'core/src/base/svd.hpp': '#include "attnsvm/base/types.hpp"\n',
  'core/src/model/model.cpp': '#include "attnsvm/model/model.hpp"\n#include "base/svd.hpp"\n',
  'core/src/experiments/scenarios.cpp': '#include "attnsvm/experiments/scenarios.hpp"\n#include "base/svd.hpp"\n',
  'wasm/bindings.cpp': '#include "attnsvm/experiments/scenarios.hpp"\n#include "guarded.hpp"\n',
  'wasm/guarded.hpp': '#include "cold.hpp"\n',
  'wasm/CMakeLists.txt': 'target_link_libraries(b PRIVATE attnsvm_hints)\n',
  'cli/main.cpp': '#include "attnsvm/model/model.hpp"\n',
  'docs/ARCHITECTURE.md': 'The model: `core/src/model/`, `core/include/attnsvm/model/model.hpp`.\n',
};

test('a clean tree passes', () => {
  const dir = tree(good);
  try { assert.deepEqual(checkLayout(dir), []); } finally { rmSync(dir, { recursive: true }); }
});

const violations = {
  'maths -> driver (public)': { 'core/src/model/model.cpp': '#include "attnsvm/experiments/scenarios.hpp"\n' },
  'maths -> driver (private)': { 'core/src/model/model.cpp': '#include "experiments/experiment_internal.hpp"\n' },
  'base stands alone': { 'core/src/base/svd.hpp': '#include "attnsvm/model/model.hpp"\n' },
  'public -> private': { 'core/include/attnsvm/model/model.hpp': '#include "base/svd.hpp"\n' },
  'wasm -> core private': { 'wasm/bindings.cpp': '#include "base/svd.hpp"\n' },
  'cli -> core private': { 'cli/main.cpp': '#include "svd.hpp"\n' },
  'wasm -> core private (CMake)': { 'wasm/CMakeLists.txt': 'target_include_directories(b PRIVATE ${PROJECT_SOURCE_DIR}/core/src)\n' },
  'layout (flat file)': { 'core/src/newfile.cpp': '\n' },
  'layout (unknown folder)': { 'core/src/misc/x.cpp': '\n' },
  map: { 'docs/ARCHITECTURE.md': 'Gone: `core/src/nowhere/`.\n' },
  // model/ below train/ (issue 39: model/mirror.cpp included train.hpp for the mirror map)
  'layer order': { 'core/src/model/model.cpp': '#include "attnsvm/model/model.hpp"\n#include "attnsvm/train/train.hpp"\n' },
  // a class of a maths header whose members only the drivers' library defines (RealImagesRun in
  // data/real_images.hpp before issue 39)
  library: {
    'core/include/attnsvm/data/images.hpp': '#include "attnsvm/base/types.hpp"\nclass ImagesRun {\n public:\n  int step(int k);\n};\n',
    'core/src/experiments/images_run.cpp': '#include "attnsvm/data/images.hpp"\nint ImagesRun::step(int k) { return k; }\n',
  },
  // the same file-local function in two files of one library (a unity batch would hold both)
  'unity (same name)': {
    'core/src/model/a.cpp': 'namespace {\nint twice(int x) { return 2 * x; }\n}  // namespace\n',
    'core/src/model/b.cpp': 'namespace {\nint twice(int x) { return x + x; }\n}  // namespace\n',
  },
  // one body under two names (ladderList / splitList before issue 39)
  'unity (same body)': {
    'core/src/experiments/a.cpp': `namespace {\n${'std::vector<int> ladderList(int n) {\n  std::vector<int> out;\n  for (int k = 0; k < n; ++k) out.push_back(k * k + 1);\n  return out;\n}\n'}}  // namespace\n`,
    'core/src/experiments/b.cpp': `namespace {\n${'std::vector<int> splitList(int n) {\n  std::vector<int> out;\n  for (int k = 0; k < n; ++k) out.push_back(k * k + 1);\n  return out;\n}\n'}}  // namespace\n`,
  },
};
for (const [rule, change] of Object.entries(violations)) {
  test(`a violation is reported: ${rule}`, () => {
    const dir = tree({ ...good, ...change });
    try {
      const problems = checkLayout(dir);
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0], new RegExp(rule.replace(/ \(.*\)$/, '').replace(/[>()]/g, '.')));
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
}

test('a listed back-edge that no longer occurs is reported (the list cannot go stale)', () => {
  const dir = tree(good);
  try {
    const problems = checkLayout(dir, { 'core/src/model/model.cpp -> attnsvm/train/train.hpp': 'the mirror map' });
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /layer order: KNOWN_BACK_EDGES lists .* no longer occurs/);
    // and a listed one that occurs is accepted
    const dir2 = tree({ ...good, ...violations['layer order'] });
    try {
      assert.deepEqual(checkLayout(dir2, { 'core/src/model/model.cpp -> attnsvm/train/train.hpp': 'the mirror map' }), []);
    } finally { rmSync(dir2, { recursive: true }); }
  } finally {
    rmSync(dir, { recursive: true });
  }
});
