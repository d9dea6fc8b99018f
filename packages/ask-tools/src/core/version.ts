/** Set by the build (tsup `define`) and by vitest's config from package.json. */
declare const __PACKAGE_VERSION__: string;

/**
 * This package's version, as MCP servers built here announce it. Injected at build time, so the
 * bundle does not carry the whole package.json (devDependencies and all).
 */
export const VERSION: string = __PACKAGE_VERSION__;

/** What the server AskTools builds (`ask.server`) announces itself as, under both SDKs. */
export const SERVER_INFO = { name: 'raider-ask', version: VERSION } as const;
