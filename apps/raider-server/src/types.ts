/** The domain words of the server, shared by its parts (and by the command line that sets them). */

/** Which task-list family a conversation gets. */
export type Family = 'tasks' | 'todo_write' | 'todo';
/** Whose tool names the tools carry. */
export type Names = 'raider' | 'claude';
/** How much goes to stderr. */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
/** The era a server serves: 2025 (`initialize`, sessions) or 2026-07-28 (per request). */
export type Era = 'legacy' | 'modern';
