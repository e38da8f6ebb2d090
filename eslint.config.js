// ESLint (flat config) over the JavaScript of the page, the engine wrapper, the tests and the scripts:
// the recommended correctness rules (undefined names, unused variables, unreachable code, ...), no
// formatting rules. Run by `npm run lint` (scripts/lint.sh) and by .ci/run before the tests.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['build/', 'dist/', 'node_modules/', 'web/public/', 'web/dist/', 'artifacts/', 'python/build/', 'python/attnsvm/assets/'] },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.worker, ...globals.node },
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
];
