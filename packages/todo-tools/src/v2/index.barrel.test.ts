// The public surface of the `./v2` entry (SDK v2) is intentional, as the `.` entry's is
// (index.barrel.test.ts): the same names, of which only TaskTools, TodoWriteTool and TodoTool are
// its own, and the same declarations in its built v2.d.ts but for its registrar types (both lists
// written once, in testing/entry-exports.ts).
import { describeDeclaredExports, describeExports } from '@raider/kit/testing';
import { describe, expect, it } from 'vitest';
import * as v1 from '../index.js';
import { ENTRY_DECLARATIONS, ENTRY_NAMES } from '../testing/entry-exports.js';
import * as api from './index.js';

describeExports(api, ENTRY_NAMES);

// Beside the shared declarations, the `./v2` entry's own: what a v2 handler gets beside its arguments,
// and the Standard Schema its ToolConfig carries.
describeDeclaredExports(new URL('../../dist/v2.d.ts', import.meta.url), [
  ...ENTRY_DECLARATIONS,
  'interface AdvertisedSchema',
  'interface ToolContext',
]);

describe('the ./v2 entry beside the . entry', () => {
  it('exports the same names, the same objects but for the three tool classes (one core each, two adapters)', () => {
    expect(Object.keys(api).sort()).toEqual(Object.keys(v1).sort());
    const ofV1 = new Map<string, unknown>(Object.entries(v1));
    const own = Object.entries(api).filter(([name, value]) => value !== ofV1.get(name));
    expect(own.map(([name]) => name).sort()).toEqual(['TaskTools', 'TodoTool', 'TodoWriteTool']);
    expect(Object.getPrototypeOf(api.TaskTools)).toBe(v1.TaskToolsCore);
    expect(Object.getPrototypeOf(v1.TaskTools)).toBe(v1.TaskToolsCore);
    expect(Object.getPrototypeOf(api.TodoWriteTool)).toBe(v1.TodoWriteToolCore);
    expect(Object.getPrototypeOf(v1.TodoWriteTool)).toBe(v1.TodoWriteToolCore);
    expect(Object.getPrototypeOf(api.TodoTool)).toBe(v1.TodoToolCore);
  });
});
