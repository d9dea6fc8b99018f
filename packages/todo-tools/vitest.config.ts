import { packageTests } from '../../vitest.base.js';

// rpiv-todo ships TypeScript sources: let Vite transform them for the differential test.
export default packageTests(import.meta.url, { server: { deps: { inline: [/@juicesharp\/rpiv-todo/] } } });
