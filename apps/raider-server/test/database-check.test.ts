// The database looked at once at start: why it cannot be reached, in one line without the password.
import { describe, expect, inject, it } from 'vitest';
import { withTarget } from '../../../packages/postgres-store/test/postgres-faults.js';
import { freePort } from '../../../packages/postgres-store/test/postgres-server.js';
import { databaseProblem, databaseTarget, reachDatabase, withoutPassword } from '../src/lists/database-check.js';
import { silent } from '../src/log.js';

describe('the database at start', () => {
  it('names where the database is, never its password', () => {
    expect(databaseTarget('postgres://raider:secret@db.internal/raider')).toBe('PostgreSQL at db.internal:5432/raider');
    expect(databaseTarget('postgresql://u:p@[::1]:6543/d')).toBe('PostgreSQL at [::1]:6543/d');
    expect(databaseTarget('not a url')).toBe('PostgreSQL');
  });

  it("takes out a URL's credentials and a long password, and leaves a short one's look-alike words alone", () => {
    const url = 'postgres://raider:raider@h/raider';
    expect(withoutPassword('database "raider" does not exist', url)).toBe('database "raider" does not exist');
    expect(withoutPassword('bad: postgres://raider:raider@h/raider', url)).toBe('bad: postgres://raider:***@h/raider');
    const long = 'postgres://u:a-long-s3cret-password@h/d';
    expect(withoutPassword('it said a-long-s3cret-password back', long)).toBe('it said *** back');
  });

  it('nothing listening, a missing database: one line each; a database that answers: none', async () => {
    const port = await freePort();
    expect(await databaseProblem(`postgres://u:p@127.0.0.1:${port}/d`)).toBe(
      'nothing listens there (connection refused)',
    );
    const url = inject('databaseUrl');
    expect(await databaseProblem(withTarget(url, { database: 'raider_no_such_db' }))).toBe(
      'database "raider_no_such_db" does not exist',
    );
    expect(await databaseProblem(url)).toBeUndefined();
    expect(await reachDatabase(url, silent, false)).toBeUndefined();
    expect(await reachDatabase(`postgres://u:p@127.0.0.1:${port}/d`, silent, false)).toBe(
      `--database-url: PostgreSQL at 127.0.0.1:${port}/d cannot be reached: nothing listens there (connection refused); start it or fix the URL, or give --wait-for-database to wait for it`,
    );
  }, 30_000);
});
