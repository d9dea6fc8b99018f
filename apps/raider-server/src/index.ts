// The public API of @raider/server, as its README documents it ("Embedding"). Adding a name here
// makes it public: do so on purpose (src/index.barrel.test.ts fails on an unplanned one, value or type).
export type { Conversation, ConversationOptions, Era } from './conversation/conversation.js';
export { createConversation } from './conversation/conversation.js';
export { OptionsError } from './errors.js';
export type { HttpServer } from './http/server.js';
export { startHttp } from './http/server.js';
export type { Logger } from './log.js';
export { createLogger } from './log.js';
export type { ServerOptions } from './options.js';
export { readOptions } from './options.js';
export type { ServerRuntime } from './runtime.js';
export type { StdioEnd, StdioServer } from './transport/stdio.js';
export { startStdio } from './transport/stdio.js';
export type { Family, LogLevel, Names } from './types.js';
