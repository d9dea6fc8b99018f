/**
 * `@raider/tasks-registry/conformance`: the MessageStore contract as a test suite, for the authors
 * of a store (`describeMessageStoreConformance(label, makeStore, { describe, it, expect })`).
 * The QuestionStore contract likewise: `describeQuestionStoreConformance(label, makeStore, { describe, it, expect })`.
 */

export type {
  MessageDelivery,
  MessageLimits,
  MessageStore,
  OutgoingMessage,
  StoredMessage,
  TakeOptions,
} from './message-store.js';
export {
  type ConformanceRunner,
  describeMessageStoreConformance,
  type MessageStoreConformanceOptions,
  type MessageStoreSetup,
  type OpenedMessageStore,
  type OpenMessageStore,
} from './message-store-conformance.js';
export type {
  OutgoingQuestion,
  QuestionLimits,
  QuestionOutcome,
  QuestionStore,
  SettleResult,
  StoredQuestion,
  StoredQuestionState,
} from './question-store.js';
export {
  describeQuestionStoreConformance,
  type OpenedQuestionStore,
  type OpenQuestionStore,
  type QuestionStoreConformanceOptions,
  type QuestionStoreSetup,
} from './question-store-conformance.js';
