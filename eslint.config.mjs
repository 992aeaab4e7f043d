import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: ['.next/**', '.next-*/**', '.data/**', 'lib/db/generated/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'],
  },
  {
    rules: {
      'no-console': ['error', { allow: ['warn', 'error'] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The domain layer stays framework-free (DESIGN.md, "Layout").
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['next/*', 'next'], message: 'lib/ must not import Next.js' }] }],
    },
  },
  {
    // Pages, actions, route handlers and components call lib/ functions; only lib/ opens transactions.
    files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/lib/db', '@/lib/db/*', '**/lib/db', '**/lib/db/*'], message: 'app/ and components/ call lib/ functions; they never reach lib/db (DESIGN.md, "Layout")' }] }],
    },
  },
];

export default config;
