import { packageBuild } from '../../tsup.base.js';

// `.` mounts the tools on MCP SDK v1, `./v2` on SDK v2; what both share (the SDK-neutral core)
// goes into chunks of its own, so neither entry loads the other's SDK. `./internal` is raider-server's.
export default packageBuild(import.meta.url, {
  entry: {
    internal: 'src/internal.ts',
    index: 'src/index.ts',
    v2: 'src/v2/index.ts',
    conformance: 'src/conformance.ts',
  },
});
