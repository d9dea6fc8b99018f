import { packageBuild } from '../../tsup.base.js';

export default packageBuild(import.meta.url, { entry: ['src/index.ts'] });
