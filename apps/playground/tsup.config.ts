import { packageBuild } from '../../tsup.base.js';

export default packageBuild(import.meta.url, { entry: ['src/cli.ts'], dts: false });
