// ESLint's flat config for the phone app (api/web/app): the recommended
// rules, and the ones that catch real mistakes in code with no build step
// and a strict CSP (no eval, no implied eval, no new Function). `make
// jscheck` runs it with --max-warnings 0.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['api/web/app/vendor/**', 'node_modules/**'] },
  js.configs.recommended,
  {
    files: ['api/web/app/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser },
    },
    rules: {
      'no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'none' }],
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-script-url': 'error',
      eqeqeq: ['error', 'always'],
      'no-var': 'error',
      'prefer-const': 'error',
      'no-use-before-define': ['error', { functions: false, classes: false, variables: false }],
      'no-promise-executor-return': ['error', { allowVoid: true }],
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      'require-atomic-updates': 'off',
      'array-callback-return': 'error',
      'no-constructor-return': 'error',
      'no-await-in-loop': 'off',
      'no-return-assign': ['error', 'except-parens'],
      'no-sequences': 'error',
      'no-throw-literal': 'error',
      'no-useless-concat': 'error',
      'no-console': 'error',
      radix: 'error',
      // A file a newcomer can read, a function a screen long (issue 24;
      // docs/docs_test.go checks the Go side the same way).
      'max-lines': ['error', { max: 420, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 85, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
  // api.js is the one door to the API (docs/webapp.md): no other module
  // imports the files behind it or writes an endpoint's path.
  {
    files: ['api/web/app/**/*.js'],
    ignores: ['api/web/app/api.js', 'api/web/app/api/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['./api/*', '../api/*'], message: 'Reach the API through api.js, the one door.' }] }],
      'no-restricted-syntax': ['error',
        { selector: 'Literal[value=/^\\/v1\\//]', message: 'Endpoint paths are built in api.js (api/), the one door.' },
        { selector: 'TemplateElement[value.raw=/^\\/v1\\//]', message: 'Endpoint paths are built in api.js (api/), the one door.' }],
    },
  },
  {
    files: ['api/web/app/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
];
