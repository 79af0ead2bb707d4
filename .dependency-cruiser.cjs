// The import rules of our architecture (see CONTRIBUTING.md), checked by `npm run depcheck` in CI.

/**
 * The floors of the application, ground first. A folder imports folders of lower floors only
 * (and nothing of the top: public, console, health, cli, bench, the files beside app.module.ts), so that
 * infrastructure never learns of what is built on it and every arrow of the picture points down.
 * Folders on one floor do not import each other (no-circular and the rules below keep it so).
 */
const FLOORS = [
  ['config'],
  ['common'],
  ['metrics'],
  ['cache'],
  ['database'],
  // The extension surface (docs/extending.md): the core's seams call it, modules build on it.
  ['extensions'],
  ['tracing', 'auth', 'docs'],
  ['posts', 'users'],
  ['linked', 'terms'],
  ['venues', 'organizers'],
  ['events'],
  ['feeds', 'webhooks', 'importer'],
  // Extension modules: built on the surface alone (the rule modules-only-through-the-surface).
  ['modules'],
];
const TOP = ['public', 'console', 'health', 'cli', 'bench'];

const floorRules = FLOORS.map((floor, i) => ({
  name: `floor-${floor.join('-')}`,
  severity: 'error',
  comment: `${floor.join(', ')} may import only what stands below: an upward import is a seam missing.`,
  from: { path: `^src/(${floor.join('|')})/` },
  to: {
    path: `^src/((${[...FLOORS.slice(i + 1).flat(), ...TOP].join('|')})/|[^/]+$)`,
  },
}));

/** Folders of one floor stand side by side: none imports another of its floor. */
const sameFloorRules = FLOORS.filter((floor) => floor.length > 1).flatMap((floor) =>
  floor.map((folder) => ({
    name: `same-floor-${folder}`,
    severity: 'error',
    comment: `${folder} stands beside ${floor.filter((f) => f !== folder).join(', ')}: folders of one floor do not import each other.`,
    from: { path: `^src/${folder}/` },
    to: { path: `^src/(${floor.filter((f) => f !== folder).join('|')})/` },
  })),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...floorRules,
    ...sameFloorRules,
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules form layers; a cycle means two modules are really one, or a seam is missing.',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'src-not-to-test',
      severity: 'error',
      comment: 'The program never depends on its tests.',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts)/' },
    },
    {
      name: 'src-not-to-dev-dependencies',
      severity: 'error',
      comment: 'What the program imports must be installed in production (npm ci --omit=dev).',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'modules-only-through-the-surface',
      severity: 'error',
      comment:
        'An extension module uses the service through src/extensions/index.ts only, so that the core can change behind it (docs/extending.md).',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/', pathNot: ['^src/extensions/index\\.ts$', '^src/modules/$1/'] },
    },
    {
      name: 'migrations-import-nothing-of-the-app',
      severity: 'error',
      comment:
        'A migration must keep doing what it did when it was written, whatever the live code becomes.',
      from: { path: '^src/database/migrations/' },
      to: { path: '^src/', pathNot: '^src/database/migrations/' },
    },
    {
      name: 'common-not-to-resources',
      severity: 'error',
      comment: 'Shared code serves the resource modules and knows none of them.',
      from: { path: '^src/common/' },
      to: { path: '^src/(events|venues|organizers|terms|linked|docs|cli|bench|health)/' },
    },
    {
      name: 'linked-resources-not-to-events',
      severity: 'error',
      comment: 'Events use venues, organizers and terms; those never reach back into events.',
      from: { path: '^src/(venues|organizers|terms|linked)/' },
      to: { path: '^src/events/' },
    },
    {
      name: 'config-imports-nothing-of-the-app',
      severity: 'error',
      comment:
        'Configuration is the ground floor: every module reads it, so it reads none of them.',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/config/' },
    },
    {
      name: 'docs-not-to-resources',
      severity: 'error',
      comment:
        'Resources declare their routes with docs (Endpoint, doc keys); docs learns what they ' +
        'contribute from DocsModule.register, never by importing them.',
      from: { path: '^src/docs/' },
      to: { path: '^src/(events|venues|organizers|terms|linked|feeds|public|importer|health)/' },
    },
    {
      name: 'database-not-to-resources',
      severity: 'error',
      comment:
        'The database layer opens connections, runs migrations and carries writes for every ' +
        'resource; the entities are listed beside the application module (src/entities.ts).',
      from: { path: '^src/database/' },
      to: {
        path: '^src/(events|venues|organizers|terms|linked|auth|webhooks|feeds|public|importer|docs|cli|bench|health)/',
      },
    },
    {
      name: 'nothing-to-cli',
      severity: 'error',
      comment: 'The command line is an entry point, like main.ts: nothing imports it.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|^dist/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
