import { packageLargeTests } from '../../vitest.base.js';

export default packageLargeTests(import.meta.url, ['src/**/*.large.test.ts']);
