// Services and libs are tested with jest, compiled by SWC (legacy decorators + metadata, as Nest needs).
const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true, tsx: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};
// Tests use the libraries' sources, so no build is needed between an edit and a test run.
const moduleNameMapper = { '^@forkvote/(contracts|platform|room-events|testing)$': '<rootDir>/libs/$1/src' };
const common = { rootDir: __dirname, transform, moduleNameMapper, testEnvironment: 'node' };

module.exports = {
  // Global, not per project: the integration suites boot whole stacks.
  testTimeout: 60_000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/libs/*/src/**/*.spec.ts',
        '<rootDir>/services/*/src/**/*.spec.ts',
        '<rootDir>/deploy/test/**/*.spec.ts',
      ],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: [
        '<rootDir>/libs/*/test/**/*.spec.ts',
        '<rootDir>/services/*/test/**/*.spec.ts',
        '<rootDir>/bench/test/**/*.spec.ts',
        '<rootDir>/scripts/test/**/*.spec.ts',
      ],
    },
  ],
};
