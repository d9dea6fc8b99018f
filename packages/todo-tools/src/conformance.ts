/**
 * `@raider/todo-tools/conformance`: the TaskStore contract as a test suite, for the authors of a
 * store (`describeTaskStoreConformance(name, open, { describe, it, expect })`).
 */

export type { ConformanceRunner, OpenTestList } from './conformance/task-store-conformance.js';
export { describeTaskStoreConformance } from './conformance/task-store-conformance.js';
// The store's type, from here too: so this entry's declarations name no SDK entry's (which would
// need that entry's SDK to type-check).
export type { TaskStore } from './store/task-store.js';
