import { describe, expect, it } from 'vitest';
import { ListFileError } from '../errors.js';
import { fileError } from './file-error.js';

describe('fileError', () => {
  it("tells a file system error by its code, after the file's path, then the outcome", () => {
    const error = fileError(
      '/lists/a/.messages/.last-id',
      Object.assign(new Error('no space'), { code: 'ENOSPC' }),
      'nothing was sent',
    );
    expect(ListFileError.isInstance(error)).toBe(true);
    expect(error.message).toBe('/lists/a/.messages/.last-id: ENOSPC; nothing was sent');
  });

  it("keeps a ListFileError's own message, which names its file already", () => {
    const cause = new ListFileError('/lists/a/.messages/.lock: is held by process 12');
    expect(fileError('/lists/a/.messages', cause, 'nothing was taken').message).toBe(
      '/lists/a/.messages/.lock: is held by process 12; nothing was taken',
    );
  });
});
