// The public surface of the `.` entry (SDK v1) is intentional: every name it exports is one the
// README documents. A new export fails this test until it is added here on purpose (and to the
// README). The `./v2` entry exports the same names (v2/index.barrel.test.ts).
import { describeExports } from '@raider/kit/testing';
import * as api from './index.js';

describeExports(api, [
  'DEFAULT_LIMITS',
  'InvalidListError',
  'InvalidOptionError',
  'MAX_TASK_ID',
  'TODO_GUIDANCE',
  'TaskTools',
  'TaskToolsCore',
  'TodoTool',
  'TodoToolCore',
  'TodoWriteListError',
  'TodoWriteTool',
  'TodoWriteToolCore',
  'isImmutableTodoTasks',
  'isSnapshot',
  'memoryListStore',
  'memoryTaskStore',
  'replayTodo',
]);
