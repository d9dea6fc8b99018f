/**
 * `@raider/todo-tools/conformance`: the TaskStore contract as a test suite, for the authors of a
 * store (`describeTaskStoreConformance(name, open, { describe, it, expect })`).
 */
export type { ConformanceRunner, OpenTestList } from './store/task-store-conformance.js';
export { describeTaskStoreConformance } from './store/task-store-conformance.js';
