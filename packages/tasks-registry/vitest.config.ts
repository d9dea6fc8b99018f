import { packageTests } from '../../vitest.base.js';

export default packageTests(import.meta.url);
