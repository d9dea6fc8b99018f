// The one configuration of `pnpm check:circles` (dependency-cruiser): no import circle between
// the files of a package, and the rooms of raider-server kept apart (its README, "Architecture").
// It reads every package's sources and tests as TypeScript, with the `.js` specifiers of NodeNext
// resolving to the `.ts` file beside them.

/** The server's sources, where its rooms are. */
const SERVER = '^apps/raider-server/src/';
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
    {
      name: 'server-features-apart',
      severity: 'error',
      comment:
        'A feature of raider-server (src/features/<name>/) imports another feature. Features never ' +
        'import each other: hand the feature a callback, and let the conversation (src/conversation/) ' +
        'wire it to the other when it makes them.',
      from: { path: `${SERVER}features/([^/]+)/` },
      to: { path: `${SERVER}features/`, pathNot: `${SERVER}features/$1/` },
    },
    {
      name: 'server-board-not-features',
      severity: 'error',
      comment:
        "raider-server's live board (src/board/) imports a feature (src/features/). The board is fed " +
        'narrow views (BoardConversation, ConversationInboxes): give it what it needs through them.',
      from: { path: `${SERVER}board/` },
      to: { path: `${SERVER}features/` },
    },
    {
      name: 'server-no-import-up',
      severity: 'error',
      comment:
        "raider-server's board (src/board/), options (src/options/) or lists (src/lists/) import the " +
        'conversation (src/conversation/) above them. Move what both need into a module of its own ' +
        '(src/agent-name.ts, src/types.ts), or hand it down as a parameter.',
      from: { path: `${SERVER}(board|options|lists)/` },
      to: { path: `${SERVER}conversation/` },
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
