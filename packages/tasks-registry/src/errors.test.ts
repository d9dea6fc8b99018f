// Errors a caller can tell apart: a stable code, and isInstance across copies of the package.
import { describeCodedError } from '@raider/kit/testing';
import {
  DEFAULT_MESSAGE_LIMITS,
  DEFAULT_QUESTION_LIMITS,
  MessageLimitError,
  QuestionLimitError,
  RegistryArgumentError,
  RegistryRangeError,
  TaskRegistry,
} from './index.js';
import { checkOutgoing } from './message-checks.js';
import { tooManyOpenError } from './question-checks.js';

describeCodedError(RegistryArgumentError, {
  packageName: '@raider/tasks-registry',
  code: 'INVALID_ARGUMENT',
  throwIt: () => new TaskRegistry().add({ id: 'a', kind: '' }),
});

describeCodedError(RegistryRangeError, {
  packageName: '@raider/tasks-registry',
  code: 'OUT_OF_RANGE',
  throwIt: () => new TaskRegistry().add({ id: 'a', kind: 'bash', status: 'sleeping' as never }),
});

describeCodedError(MessageLimitError, {
  packageName: '@raider/tasks-registry',
  code: 'MESSAGE_LIMIT',
  // The check a store's send runs first (a send rejects with what it throws).
  throwIt: () => checkOutgoing({ to: 'bob', text: 'x'.repeat(64_001), notification: false }, DEFAULT_MESSAGE_LIMITS),
});

describeCodedError(QuestionLimitError, {
  packageName: '@raider/tasks-registry',
  code: 'QUESTION_LIMIT',
  // The error a store's ask rejects with past maxOpenQuestions.
  throwIt: () => {
    throw tooManyOpenError(DEFAULT_QUESTION_LIMITS.maxOpenQuestions);
  },
});
