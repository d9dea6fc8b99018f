// The one configuration of `pnpm check:circles` (dependency-cruiser): no import circle between
// the files of a package. It reads every package's sources and tests as TypeScript, with the
// `.js` specifiers of NodeNext resolving to the `.ts` file beside them.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A module reaches itself through its imports. Break the circle: move what both sides need ' +
        'into a module of its own, or hand one side a narrow interface instead of the other module.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    // What is built or left by a run (tsup's bundled config, a test's results) is not source.
    exclude: { path: '(^|/)(node_modules|dist|test-results|coverage)/|\\.bundled_[^/]*\\.mjs$' },
    // Type-only imports count too: a circle of types still ties the files together.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
