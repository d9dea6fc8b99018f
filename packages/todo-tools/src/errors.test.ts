// Errors a caller can tell apart: a stable code, and isInstance across copies of the package.
import { describe, expect, it } from 'vitest';
import { InvalidListError, TodoTools } from './index.js';

describe('errors', () => {
  it('InvalidListError has a stable code and is recognised by isInstance', () => {
    let thrown: unknown;
    try {
      (() => new TodoTools().restoreTasks([{ id: 'x' } as never]))();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidListError);
    expect(InvalidListError.isInstance(thrown)).toBe(true);
    expect(typeof (thrown as { code: unknown }).code).toBe('string');
    expect(InvalidListError.isInstance(new Error('plain'))).toBe(false);
  });

  it('isInstance recognises an error from another copy of the package (no shared class)', () => {
    const foreign = Object.assign(new Error('from elsewhere'), {
      [Symbol.for('@raider/todo-tools/error')]: 'INVALID_LIST',
    });
    expect(InvalidListError.isInstance(foreign)).toBe(true);
  });
});
