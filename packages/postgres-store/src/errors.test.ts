// Errors a caller can tell apart: a stable code, isInstance across copies of the package, and
// whether a failed change may have been saved.
import { describeCodedError } from '@raider/kit/testing';
import { describe, expect, it } from 'vitest';
import { DatabaseError, ListIdError, openPostgresLists } from './index.js';

describeCodedError(ListIdError, {
  packageName: '@raider/postgres-store',
  code: 'BAD_LIST_ID',
  throwIt: () => openPostgresLists({ connectionString: 'postgres://127.0.0.1:1/x' }).list(''),
});

describeCodedError(DatabaseError, {
  packageName: '@raider/postgres-store',
  code: 'DATABASE_UNAVAILABLE',
  // Every real DatabaseError comes asynchronously (test/postgres-lists.test.ts, test/postgres-lists.faults.test.ts).
  throwIt: () => {
    throw new DatabaseError('PostgreSQL at h:5432/d is unreachable (x); nothing was changed');
  },
});

describe('DatabaseError.mayHaveBeenSaved', () => {
  it('is false unless the store cannot tell whether the change was committed', () => {
    expect(new DatabaseError('nothing was changed').mayHaveBeenSaved).toBe(false);
    const lost = new DatabaseError('lost during COMMIT', { mayHaveBeenSaved: true, cause: new Error('reset') });
    expect(lost.mayHaveBeenSaved).toBe(true);
    expect((lost.cause as Error).message).toBe('reset');
  });
});
