// @ts-check
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'client/routeTree.gen.ts', 'test-results/**', '**/*.gen.ts'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // A function a reader can hold in their head: split it where it branches more.
      complexity: ['error', 15],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // One-way dependencies (docs/layout.md): the client never reaches into the server or the database.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/db/**'], message: 'client/ may import sync/ only' },
            { regex: '^#(server|db)/', message: 'client/ may import sync/ only' },
          ],
        },
      ],
    },
  },
  {
    // Tests poke at JSON responses of any shape.
    files: ['tests/**/*.ts', '**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['sync/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/db/**', '**/client/**'], message: 'sync/ is shared: it imports neither client/ nor server/' },
            { regex: '^#(server|db|client|tests)/', message: 'sync/ is shared: it imports neither client/ nor server/' },
          ],
        },
      ],
    },
  },
  {
    // The server builds on db/, never the other way: a migration that needs server logic leaves a marker.
    files: ['db/**/*.ts'],
    ignores: ['db/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/client/**'], message: 'db/ imports neither server/ nor client/' },
            { regex: '^#(server|client|tests)/', message: 'db/ imports neither server/ nor client/' },
          ],
        },
      ],
    },
  },
);
