/**
 * A QuestionStore in this process's memory: the open questions of one list for servers that need
 * no durability (tests, one process, a demo), and the reference the durable stores are checked
 * against (`@raider/tasks-registry/conformance`). Its options are checked here; the questions
 * themselves are `MemoryQuestions` (memory-questions.ts).
 */
import { RegistryArgumentError } from './errors.js';
import { MemoryQuestions } from './memory-questions.js';
import { received } from './message-checks.js';
import { resolveQuestionLimits } from './question-checks.js';
import type { QuestionLimits, QuestionStore } from './question-store.js';

/** Options of `memoryQuestionStore`. */
export interface MemoryQuestionStoreOptions {
  /** The bounds of the list's questions, over `DEFAULT_QUESTION_LIMITS`. */
  limits?: Partial<QuestionLimits>;
  /** The clock of `askedAt`, `settledAt`, expiry and `keepSettledMs`, in ms since the epoch (default `Date.now`). */
  now?: () => number;
}

/**
 * A QuestionStore held in this process's memory: whoever holds it shares its questions, and they
 * end with the process (so it keeps no question past a restart: use a durable store for that).
 * Ids count `ask_1`, `ask_2`, ... per store, in the order of the asks, never given twice.
 *
 * - Expiry is read at each read, on `now`: an open question reads `expired` from its `expiresAt`
 *   on (no timer), and a settle then gets `already`.
 * - A settled question is dropped `keepSettledMs` after `settledAt`, an expired one that long
 *   after `expiresAt`, by the reads and writes that come after (no timer keeps a process alive).
 * - `watch` calls back, in a later microtask, after an ask and after a settle that won. A
 *   listener that throws fails neither the call nor the other listeners; its error is thrown again
 *   in a later task.
 * - `ask`, `get` and `settle` cost the same whatever the list holds (an ask at `maxOpenQuestions`
 *   walks the open questions once, for the expired ones); `open()` walks the open questions only.
 *
 * @throws RegistryArgumentError / RegistryRangeError for options of the wrong shape or limits that
 * are not positive.
 *
 * @example
 * const store = memoryQuestionStore({ limits: { maxOpenQuestions: 10 } });
 * const asked = await store.ask({ asker: 'bob', question: 'Ship it?', options: ['yes', 'no'], expiresAt: Date.now() + 60_000 });
 * await store.settle(asked.id, { state: 'answered', answer: 'yes', by: 'ana' }); // { settled: { ..., state: 'answered' } }
 * await store.settle(asked.id, { state: 'declined' }); // { already: { ..., answer: 'yes', settledBy: 'ana' } }
 */
export function memoryQuestionStore(options: MemoryQuestionStoreOptions = {}): QuestionStore {
  if (typeof options !== 'object' || options === null) {
    throw new RegistryArgumentError(
      `memoryQuestionStore: expected options { limits?, now? } or nothing, received ${received(options)}`,
    );
  }
  const limits = resolveQuestionLimits('memoryQuestionStore', options.limits);
  if (options.now !== undefined && typeof options.now !== 'function') {
    throw new RegistryArgumentError(
      `memoryQuestionStore: now: expected a function or nothing, received ${received(options.now)}`,
    );
  }
  const questions = new MemoryQuestions(limits, options.now ?? Date.now);
  // A plain object of five functions, as the message store is: it can be spread and its functions
  // handed on alone.
  return {
    ask: (question) => questions.ask(question),
    get: (id) => questions.get(id),
    open: () => questions.open(),
    settle: (id, outcome) => questions.settle(id, outcome),
    watch: (listener) => questions.watch(listener),
  };
}
