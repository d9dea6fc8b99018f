// Errors a caller can tell apart: a stable code, and isInstance across copies of the package.
import { describe, expect, it } from 'vitest';
import { AskError } from './errors.js';

describe('errors', () => {
  it('AskError has a stable code and is recognised by isInstance', () => {
    let thrown: unknown;
    try {
      (() => {
        throw new AskError('declined');
      })();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AskError);
    expect(AskError.isInstance(thrown)).toBe(true);
    expect(typeof (thrown as { code: unknown }).code).toBe('string');
    expect(AskError.isInstance(new Error('plain'))).toBe(false);
  });

  it('isInstance recognises an error from another copy of the package (no shared class)', () => {
    const foreign = Object.assign(new Error('from elsewhere'), { [Symbol.for('@raider/ask-tools/error')]: true });
    expect(AskError.isInstance(foreign)).toBe(true);
  });
});
