export type { Conversation, ConversationOptions, ListHandle } from './conversation.js';
export { createConversation, listFor, memoryList, TASKS_URI, WORK_URI } from './conversation.js';
export type { ListFile, ListFileOptions, Section } from './file-store.js';
export {
  ListFileError,
  ListIdError,
  listFileName,
  listFilePath,
  openListFile,
  projectListId,
} from './file-store.js';
export type { HttpServer } from './http.js';
export { LIST_HEADER, startHttp } from './http.js';
export type { Logger } from './log.js';
export { createLogger } from './log.js';
export type { Family, LogLevel, Names, ServerOptions } from './options.js';
export { helpText, isLoopback, OptionsError, readOptions } from './options.js';
export type { StdioServer } from './stdio.js';
export { startStdio } from './stdio.js';
