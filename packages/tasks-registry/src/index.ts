export { MessageLimitError, RegistryArgumentError, RegistryRangeError } from './errors.js';
export type { MemoryMessageStoreOptions } from './memory-message-store.js';
export { memoryMessageStore } from './memory-message-store.js';
export type {
  MessageDelivery,
  MessageLimits,
  MessageStore,
  OutgoingMessage,
  StoredMessage,
  TakeOptions,
} from './message-store.js';
export { DEFAULT_MESSAGE_LIMITS } from './message-store.js';
export type { EndStatus, NotificationFields, ReminderOptions, Usage } from './notification.js';
export {
  END_STATUSES,
  escape,
  notificationText,
  REMINDER_HEADER,
  REMINDER_HEADER_WITH_USER_MESSAGE,
  REMINDER_LINE,
  reminderText,
} from './notification.js';
export type {
  EntryFilter,
  NewTaskEntry,
  QueueItem,
  TaskEntry,
  TaskRegistryEvents,
  TaskRegistryOptions,
  TaskStatus,
  UserMessage,
} from './registry.js';
export { TaskRegistry } from './registry.js';
