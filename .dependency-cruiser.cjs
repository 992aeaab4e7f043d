// The shape of the code, held by `npm run lint` (docs/ARCHITECTURE.md, "Folders").
// lib/ is the product: platform folders at the bottom, the domain above them, the two edges (the
// HTTP API and the worker) on top. tooling/ (tests' helpers, seed, CLI, launcher, simulator, the
// embedded database) and the UI (app/, components/) stand on lib/; lib/ never reaches up to them.
/** Platform folders: they know nothing of the domain. */
const PLATFORM = ['db', 'log', 'time', 'http', 'i18n', 'paging', 'ratelimit', 'records'];
/** The edges: nothing in lib/ imports them. */
const EDGES = ['api', 'worker'];
const folders = (names) => `^lib/(${names.join('|')})/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles-between-lib-folders',
      comment: 'Two lib/ folders never import each other, however indirectly.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^lib/' },
      to: { path: '^lib/', circular: true },
    },
    {
      name: 'no-circular-modules',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-knows-no-domain',
      comment: 'db, log, time, http, i18n, paging, ratelimit and records import only each other.',
      severity: 'error',
      from: { path: folders(PLATFORM) },
      to: { path: '^lib/[^/]+/', pathNot: folders(PLATFORM) },
    },
    {
      name: 'nothing-in-lib-imports-the-edges',
      comment: 'lib/api (the HTTP API) and lib/worker (the job runner) stand on the domain, never under it.',
      severity: 'error',
      from: { path: '^lib/', pathNot: folders(EDGES) },
      to: { path: folders(EDGES) },
    },
    {
      name: 'lib-stands-alone',
      comment: 'lib/ is the product: it never imports the UI, the scripts or the tooling.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(app|components|scripts|tooling|e2e)/' },
    },
    {
      name: 'ui-uses-no-tooling',
      comment: 'Pages and components never import the tooling (tests, seed, CLI, launcher).',
      severity: 'error',
      from: { path: '^(app|components)/' },
      to: { path: '^(tooling|scripts|e2e)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)node_modules/', '\\.test\\.tsx?$', '^lib/db/generated/', '\\.d\\.mts$'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
