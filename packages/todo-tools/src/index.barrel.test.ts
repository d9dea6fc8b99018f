// The public surface is intentional: every name the package exports is one its README documents.
// A new export fails this test until it is added here on purpose (and to the README).
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('the package exports', () => {
  it('exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'DEFAULT_LIMITS',
        'InvalidListError',
        'InvalidOptionError',
        'TODO_GUIDANCE',
        'TodoListError',
        'TodoTool',
        'TodoTools',
        'memoryStore',
        'replay',
      ].sort(),
    );
  });
});
