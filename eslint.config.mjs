import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SERVICES = ['gateway', 'auth', 'rooms', 'billing', 'places'];

/**
 * The repo's shape as import rules: services depend on contracts and platform, never on each other; the
 * web app imports only contracts; contracts import no platform code. ESLint's own no-restricted-imports
 * checks the import specifiers, package names and relative paths alike, with no resolver to configure.
 */
const boundary = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: forbidden.map((group) => ({ group: [group].flat(), message })) },
    ],
  },
});
const serviceBoundaries = SERVICES.map((service) =>
  boundary(
    [`services/${service}/**/*.ts`],
    SERVICES.filter((other) => other !== service).map((other) => [
      `@forkvote/${other}`,
      `@forkvote/${other}/*`,
      `**/services/${other}/**`,
      `../../${other}/**`,
      `../../../${other}/**`,
    ]),
    'A service never imports another service: share through libs/contracts or ask over the transport.',
  ),
);

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.nx/**',
      '.data/**',
      'e2e/test-results/**',
      'e2e/artifacts/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // k6 scripts run in k6's runtime, which provides these globals.
    files: ['load/k6/**/*.js'],
    languageOptions: { globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly' } },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Loaded by the service worker (vite.config.ts imports it into the generated one).
    files: ['web/public/push-handler.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  ...serviceBoundaries,
  boundary(
    ['web/src/**/*.{ts,tsx}'],
    [
      ['@forkvote/*', '!@forkvote/contracts'],
      ['**/libs/**', '**/services/**'],
    ],
    'The web app imports only @forkvote/contracts (its browser entry) of the repo.',
  ),
  boundary(
    ['libs/contracts/**/*.ts'],
    [
      [
        '@forkvote/platform',
        '@forkvote/room-events',
        '@forkvote/testing',
        '**/platform/**',
        '**/testing/**',
        '**/services/**',
      ],
    ],
    'Contracts are shared by everyone and depend on nobody in the repo.',
  ),
);
