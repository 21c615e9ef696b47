// @ts-check
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** What every client file may not import: the server and the database (one-way dependencies, docs/layout.md). */
function clientPatterns(...extra) {
  return [
    { group: ['**/server/**', '**/db/**'], message: 'client/ may import sync/ only' },
    { regex: '^#(server|db)/', message: 'client/ may import sync/ only' },
    ...extra,
  ];
}

/** For a file `depth` folders inside its feature: no alias into another feature or the app, no relative path out of the feature. */
function featureRule(depth) {
  return {
    regex: `^(#client/(app|features)/|(\\.\\./){${depth}})`,
    message:
      'A feature imports client/ui, client/lib, client/sync and sync/ (and its own files), never another feature or client/app; client/app composes them',
  };
}

/** client/ui, client/lib and client/sync sit below the features and the app. */
const LOWER_LAYER = {
  regex: '^(#client/|(\\.\\./)+)(features|app)/',
  message: 'client/ui, client/lib and client/sync import no feature and not client/app',
};
/** client/sync shows nothing itself: the app and the features put its outcomes on screen, in their words (docs/layout.md). */
const NO_SCREEN_TEXT = { regex: '^sonner$|/ui/toast$', message: 'client/sync shows no toast: it reports, and client/app or a feature says it' };

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
      'no-restricted-imports': ['error', { patterns: clientPatterns() }],
    },
  },
  // Layers inside the client (docs/layout.md), as bulletproof-react's zones: client/app composes the
  // features; a feature imports client/ui, client/lib, client/sync and sync/, never another feature
  // or client/app; ui, lib and sync import no feature and no app. A path that climbs out of a
  // feature's folder is caught by how far it climbs from where the file sits.
  { files: ['client/features/*/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', { patterns: clientPatterns(featureRule(1)) }] } },
  { files: ['client/features/*/*/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', { patterns: clientPatterns(featureRule(2)) }] } },
  { files: ['client/features/*/*/*/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', { patterns: clientPatterns(featureRule(3)) }] } },
  {
    files: ['client/{ui,lib}/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: clientPatterns(LOWER_LAYER) }] },
  },
  { files: ['client/sync/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', { patterns: clientPatterns(LOWER_LAYER, NO_SCREEN_TEXT) }] } },
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
