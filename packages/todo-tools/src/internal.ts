// Internal: for raider's own server; not covered by semver; do not import. The `./internal` entry
// exports what only @raider/server uses (docs/decisions/0011-internal-entries.md); the root's lint
// rule fails an import of it anywhere else. src/internal.barrel.test.ts pins it.
export { isImmutableTodoTasks } from './todo/todo-state.js';
// The type the guard names, exported beside it so the built internal.d.ts takes it from the types'
// chunk: without it, the declaration bundler takes it from index.d.ts, which names SDK v1, and the
// entry would not be SDK-neutral (scripts/check-peers.mjs checks).
export type { TodoTask } from './types.js';
