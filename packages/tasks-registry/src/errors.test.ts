// Errors a caller can tell apart: a stable code, and isInstance across copies of the package.
import { describe, expect, it } from 'vitest';
import { RegistryArgumentError, TaskRegistry } from './index.js';

describe('errors', () => {
  it('RegistryArgumentError has a stable code and is recognised by isInstance', () => {
    let thrown: unknown;
    try {
      (() => new TaskRegistry().add({ id: 'a', kind: '' }))();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RegistryArgumentError);
    expect(RegistryArgumentError.isInstance(thrown)).toBe(true);
    expect(typeof (thrown as { code: unknown }).code).toBe('string');
    expect(RegistryArgumentError.isInstance(new Error('plain'))).toBe(false);
  });

  it('isInstance recognises an error from another copy of the package (no shared class)', () => {
    const foreign = Object.assign(new Error('from elsewhere'), {
      [Symbol.for('@raider/tasks-registry/error')]: 'INVALID_ARGUMENT',
    });
    expect(RegistryArgumentError.isInstance(foreign)).toBe(true);
  });
});
