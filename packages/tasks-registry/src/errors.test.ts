// Errors a caller can tell apart: a stable code, and isInstance across copies of the package.
import { describeCodedError } from '@raider/coded-error/testing';
import { RegistryArgumentError, RegistryRangeError, TaskRegistry } from './index.js';

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
