import { packageBuild } from '../../tsup.base.js';

// `.` is the registry and the stores; `./conformance` the MessageStore contract as a test suite.
export default packageBuild(import.meta.url, { entry: { index: 'src/index.ts', conformance: 'src/conformance.ts' } });
