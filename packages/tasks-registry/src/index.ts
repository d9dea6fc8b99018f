export { MessageLimitError, QuestionLimitError, RegistryArgumentError, RegistryRangeError } from './errors.js';
export { type MemoryMessageStoreOptions, memoryMessageStore } from './memory-message-store.js';
export { type MemoryQuestionStoreOptions, memoryQuestionStore } from './memory-question-store.js';
export {
  DEFAULT_MESSAGE_LIMITS,
  type MessageDelivery,
  type MessageLimits,
  type MessageStore,
  type OutgoingMessage,
  type StoredMessage,
  type TakeOptions,
} from './message-store.js';
export {
  END_STATUSES,
  type EndStatus,
  escape,
  type NotificationFields,
  notificationText,
  REMINDER_HEADER,
  REMINDER_HEADER_WITH_USER_MESSAGE,
  REMINDER_LINE,
  type ReminderOptions,
  reminderText,
  type Usage,
} from './notification.js';
export {
  DEFAULT_QUESTION_LIMITS,
  type OutgoingQuestion,
  type QuestionLimits,
  type QuestionOutcome,
  type QuestionStore,
  type SettleResult,
  type StoredQuestion,
  type StoredQuestionState,
} from './question-store.js';
export {
  type EntryFilter,
  type NewTaskEntry,
  type QueueItem,
  type TaskEntry,
  TaskRegistry,
  type TaskRegistryEvents,
  type TaskRegistryOptions,
  type TaskStatus,
  type UserMessage,
} from './registry.js';
