// Errors a caller can tell apart: a stable code, and isInstance across copies of the package.
import { describe, expect, it } from 'vitest';
import { raiderTools, ToolNamesArgumentError } from './index.js';

describe('errors', () => {
  it('ToolNamesArgumentError has a stable code and is recognised by isInstance', () => {
    let thrown: unknown;
    try {
      (() => raiderTools(undefined as unknown as string[]))();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolNamesArgumentError);
    expect(ToolNamesArgumentError.isInstance(thrown)).toBe(true);
    expect(typeof (thrown as { code: unknown }).code).toBe('string');
    expect(ToolNamesArgumentError.isInstance(new Error('plain'))).toBe(false);
  });

  it('isInstance recognises an error from another copy of the package (no shared class)', () => {
    const foreign = Object.assign(new Error('from elsewhere'), { [Symbol.for('@raider/tool-names/error')]: true });
    expect(ToolNamesArgumentError.isInstance(foreign)).toBe(true);
  });
});
