import { packageTests } from '../../vitest.base.js';

// Unit tests in src/ (test:unit); the tests that start processes, mount a folder or make a FIFO
// are in test/ (test:e2e).
export default packageTests(import.meta.url, {}, {});
