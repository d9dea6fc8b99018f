// Errors a caller can tell apart: a stable code, and isInstance across copies of the package.
import { describeCodedError } from '@raider/kit/testing';
import {
  InvalidListError,
  InvalidOptionError,
  TaskTools,
  TodoTool,
  TodoWriteListError,
  TodoWriteTool,
} from './index.js';

describeCodedError(InvalidListError, {
  packageName: '@raider/todo-tools',
  code: 'INVALID_LIST',
  throwIt: () => new TaskTools().restoreTasks([{ id: 'x' } as never]),
});

describeCodedError(TodoWriteListError, {
  packageName: '@raider/todo-tools',
  code: 'INVALID_TODO_LIST',
  throwIt: () => new TodoWriteTool().check([{ content: '' }]),
});

describeCodedError(InvalidOptionError, {
  packageName: '@raider/todo-tools',
  code: 'INVALID_OPTION',
  throwIt: () => new TodoTool({ guidance: { promptSnippet: 42 } as never }),
});
