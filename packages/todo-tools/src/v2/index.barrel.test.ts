// The public surface of the `./v2` entry (SDK v2) is intentional, as the `.` entry's is
// (index.barrel.test.ts): the same names, of which only TodoTools and TodoTool are its own.
import { describeExports } from '@raider/coded-error/testing';
import { describe, expect, it } from 'vitest';
import * as v1 from '../index.js';
import * as api from './index.js';

describeExports(api, [
  'DEFAULT_LIMITS',
  'InvalidListError',
  'InvalidOptionError',
  'MAX_TASK_ID',
  'TODO_GUIDANCE',
  'TodoListError',
  'TodoTool',
  'TodoToolCore',
  'TodoTools',
  'TodoToolsCore',
  'isImmutableTasks',
  'isSnapshot',
  'memoryStore',
  'memoryTaskStore',
  'replay',
]);

describe('the ./v2 entry beside the . entry', () => {
  it('exports the same names, the same objects but for TodoTools and TodoTool (one core, two adapters)', () => {
    expect(Object.keys(api).sort()).toEqual(Object.keys(v1).sort());
    const ofV1 = new Map<string, unknown>(Object.entries(v1));
    const own = Object.entries(api).filter(([name, value]) => value !== ofV1.get(name));
    expect(own.map(([name]) => name).sort()).toEqual(['TodoTool', 'TodoTools']);
    expect(Object.getPrototypeOf(api.TodoTools)).toBe(v1.TodoToolsCore);
    expect(Object.getPrototypeOf(v1.TodoTools)).toBe(v1.TodoToolsCore);
    expect(Object.getPrototypeOf(api.TodoTool)).toBe(v1.TodoToolCore);
  });
});
