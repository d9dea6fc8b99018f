import { packageBuild } from '../../tsup.base.js';

// `.` mounts the tools on the v1 SDK, `./v2` on v2; the SDK-neutral core goes into a chunk both share.
export default packageBuild(import.meta.url, { entry: { index: 'src/index.ts', v2: 'src/v2/index.ts' } });
