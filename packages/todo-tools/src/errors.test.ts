// Errors a caller can tell apart: a stable code, and isInstance across copies of the package.
import { describeCodedError } from '@raider/coded-error/testing';
import { InvalidListError, InvalidOptionError, TodoListError, TodoTool, TodoTools } from './index.js';

describeCodedError(InvalidListError, {
  packageName: '@raider/todo-tools',
  code: 'INVALID_LIST',
  throwIt: () => new TodoTools().restoreTasks([{ id: 'x' } as never]),
});

describeCodedError(TodoListError, {
  packageName: '@raider/todo-tools',
  code: 'INVALID_TODO_LIST',
  throwIt: () => new TodoTools().check([{ content: '' }]),
});

describeCodedError(InvalidOptionError, {
  packageName: '@raider/todo-tools',
  code: 'INVALID_OPTION',
  throwIt: () => new TodoTool({ guidance: { promptSnippet: 42 } as never }),
});
