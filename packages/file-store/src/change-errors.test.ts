import { describe, expect, it } from 'vitest';
import { mayHaveBeenSaved, vanished } from './change-errors.js';
import { ListFileError } from './errors.js';

describe('change errors', () => {
  it('vanished names the file, says nothing was changed and that the task is not written back', () => {
    const error = vanished('/lists/a/3.json');
    expect(ListFileError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(
      /^\/lists\/a\/3\.json: was deleted by another writer while this change was being made/,
    );
    expect(error.message).toMatch(/nothing was changed, and the task is not written back$/);
    expect((error as { mayHaveBeenSaved?: boolean }).mayHaveBeenSaved).toBeUndefined();
  });

  it('mayHaveBeenSaved marks the same error, its message untouched', () => {
    const error = new ListFileError('/lists/a: the change was made in part');
    const marked = mayHaveBeenSaved(error);
    expect(marked).toBe(error);
    expect(marked.message).toBe('/lists/a: the change was made in part');
    expect((marked as { mayHaveBeenSaved?: boolean }).mayHaveBeenSaved).toBe(true);
  });
});
