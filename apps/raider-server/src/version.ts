import pkg from '../package.json' with { type: 'json' };

/** This package's version, as MCP servers built here announce it. */
export const VERSION: string = pkg.version;
