// Lint: typescript-eslint's recommended rules, no import cycles and the house format, over the
// service, the benches and the tests. The engines (engine-as/) are AssemblyScript, checked by asc.
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'node_modules/', 'engine-as/', '.data/'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.test.json' })] },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // The house format (.editorconfig), checked in CI by ESLint's layout rules rather than a
  // reformatter, which would join or split the short statements kept on one line on purpose.
  // `npx eslint --fix .` applies them. The generated client schema keeps its generator's quotes.
  {
    files: ['**/*.ts', '**/*.js'],
    ignores: ['src/client/schema.d.ts'],
    rules: {
      indent: ['error', 2, { SwitchCase: 1 }],
      quotes: ['error', 'single', { avoidEscape: true, allowTemplateLiterals: true }],
      semi: ['error', 'always'],
      'linebreak-style': ['error', 'unix'],
      'eol-last': 'error',
      'no-tabs': 'error',
      'no-trailing-spaces': 'error',
      'no-multiple-empty-lines': ['error', { max: 2 }],
      'brace-style': ['error', '1tbs', { allowSingleLine: true }],
      'comma-spacing': 'error',
      'keyword-spacing': 'error',
      'space-infix-ops': 'error',
      'object-curly-spacing': ['error', 'always'],
    },
  },
  // Tests read JSON answers and hand-built malformed requests: untyped values are their subject.
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
