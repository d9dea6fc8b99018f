import { packageBuild } from '../../tsup.base.js';

// The bin (cli) has no types; index is what `import '@raider/server'` reads.
export default packageBuild(import.meta.url, { entry: ['src/index.ts', 'src/cli.ts'], dts: { entry: 'src/index.ts' } });
