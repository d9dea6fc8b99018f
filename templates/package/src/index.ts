// The public API of @raider/__NAME__: name every export explicitly (no `export *`); what is not
// exported here is private. src/index.barrel.test.ts lists them: add a name there on purpose.
export { hello } from './hello.js';
