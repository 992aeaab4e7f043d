import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const noDb = {
  group: ['@/lib/db', '@/lib/db/*', '**/lib/db', '**/lib/db/*'],
  message: 'app/ and components/ call lib/ functions; they never reach lib/db (DESIGN.md, "Layout")',
};
// Route code (app/, its server helpers in app/_server included) is reached from app/ only: shared
// components get server actions as props, i18n's server helpers live in i18n/server.ts (issue 29, 5).
const noApp = {
  group: ['@/app', '@/app/*', '@/app/**', '**/app/*', '**/app/**'],
  message: 'components/, lib/ and i18n/ never import app/: pass server actions as props (DESIGN.md, "Layout")',
};
const noAppServer = {
  group: ['@/app/_server', '@/app/_server/*', '**/app/_server', '**/app/_server/*'],
  message: "app/_server is the routes' own server code: lib/ and its tests never import it",
};
const sections = ['desk', 'manage', 'k', 'sign-in', 'sign-out', 'account', 'invitations', 'password-reset'];

function uiBoundaries() {
  const other = (mine) => sections.filter((s) => s !== mine).flatMap((s) => [`@/app/${s}/*`, `@/app/${s}/**`]);
  return [
    {
      files: ['app/**/*.{ts,tsx}'],
      rules: { 'no-restricted-imports': ['error', { patterns: [noDb] }] },
    },
    ...sections.map((section) => ({
      files: [`app/${section}/**/*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              noDb,
              { group: other(section), message: `app/${section} keeps its own UI; shared pieces go in components/` },
            ],
          },
        ],
      },
    })),
    {
      files: ['components/**/*.{ts,tsx}'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [noDb, noApp],
          },
        ],
      },
    },
  ];
}

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      '.next/**',
      '.next-*/**',
      '.data/**',
      'lib/db/generated/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
    ],
  },
  {
    rules: {
      'no-console': ['error', { allow: ['warn', 'error'] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The domain layer stays framework-free (DESIGN.md, "Layout").
    // Tests may call route handlers (app/api) but, like the code, never app/_server.
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['next/*', 'next'], message: 'lib/ must not import Next.js' }, noAppServer] },
      ],
    },
  },
  {
    files: ['i18n/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noApp] }] },
  },
  // Pages, actions, route handlers and components call lib/ functions; only lib/ opens transactions.
  // Route-specific UI lives beside its route (app/<section>/_components); one section never reaches
  // into another's, and shared components never reach into app/.
  ...uiBoundaries(),
  {
    // lib/ is the product; tooling/ (tests' helpers, seed, CLI, launcher) stands on it, and only
    // tests reach into tooling/ from lib/ (.dependency-cruiser.cjs holds the rest of the shape).
    files: ['lib/**/*.ts'],
    ignores: ['lib/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['next/*', 'next'], message: 'lib/ must not import Next.js' },
            { group: ['**/tooling/**', '@/tooling/**'], message: 'lib/ never imports tooling/ (its tests may)' },
            noApp,
            {
              group: ['**/db/tx', '@/lib/db/tx'],
              importNames: ['scopedQuery'],
              message: 'SQL outside Prisma is a Statement run by runStatements or runInTransaction (decision 024)',
            },
          ],
        },
      ],
    },
  },
  {
    // Decision 024: SQL reaches the database as a Statement (lib/db/tx.ts runs it), never as a
    // hand-built string handed to Prisma nor as Prisma's tagged raw SQL. Tests may set up and
    // inspect state with raw SQL.
    files: ['lib/**/*.ts', 'app/**/*.ts', 'app/**/*.tsx', 'tooling/**/*.ts'],
    ignores: ['lib/db/**', '**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^\\$(query|execute)Raw(Unsafe)?$/]',
          message: 'Run a Statement with runInTransaction or runStatements (decision 024)',
        },
      ],
    },
  },
];

export default config;
