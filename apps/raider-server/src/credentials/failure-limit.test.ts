// The 429 limit on refused credentials, on a fake clock.
import { describe, expect, it } from 'vitest';
import { FailureLimiter } from './failure-limit.js';

/** A clock the test moves. */
function fakeClock(start = 1_000_000) {
  const clock = { now: start, tick: (ms: number) => (clock.now += ms) };
  return clock;
}

/** A request from `address` as the guard makes it: blocked (429), else refused and counted. */
function wrongTokenFrom(limiter: FailureLimiter, address: string): number | 'refused' {
  const wait = limiter.retryAfter(address);
  if (wait !== undefined) return wait;
  limiter.fail(address);
  return 'refused';
}

describe('FailureLimiter', () => {
  it('answers the 50th wrong token normally and blocks the 51st request, with a sane Retry-After', () => {
    const clock = fakeClock();
    const limiter = new FailureLimiter({ now: () => clock.now });
    for (let i = 1; i <= 50; i += 1) {
      expect([i, wrongTokenFrom(limiter, '10.0.0.1')]).toEqual([i, 'refused']);
      clock.tick(100);
    }
    // The first refusal was 5 s ago: it leaves the 60 s window in 55 s.
    expect(limiter.retryAfter('10.0.0.1')).toBe(55);
  });

  it('leaves other addresses alone', () => {
    const clock = fakeClock();
    const limiter = new FailureLimiter({ now: () => clock.now });
    for (let i = 0; i < 50; i += 1) limiter.fail('10.0.0.1');
    expect(limiter.retryAfter('10.0.0.1')).toBe(60);
    expect(limiter.retryAfter('10.0.0.2')).toBeUndefined();
    expect(wrongTokenFrom(limiter, '10.0.0.2')).toBe('refused');
  });

  it('ends the block when the oldest refusal leaves the window, and says at least 1 s before', () => {
    const clock = fakeClock();
    const limiter = new FailureLimiter({ max: 3, windowMs: 10_000, now: () => clock.now });
    limiter.fail('a');
    clock.tick(4000);
    limiter.fail('a');
    limiter.fail('a');
    expect(limiter.retryAfter('a')).toBe(6);
    clock.tick(5999);
    expect(limiter.retryAfter('a')).toBe(1);
    clock.tick(1);
    expect(limiter.retryAfter('a')).toBeUndefined();
    // Two refusals are still in the window: one more blocks again, until the next oldest leaves.
    limiter.fail('a');
    expect(limiter.retryAfter('a')).toBe(4);
    clock.tick(10_000);
    expect(limiter.retryAfter('a')).toBeUndefined();
  });

  it('keeps at most maxAddresses, forgetting the one seen longest ago', () => {
    const clock = fakeClock();
    const limiter = new FailureLimiter({ max: 2, maxAddresses: 3, now: () => clock.now });
    for (const address of ['a', 'b', 'c']) limiter.fail(address);
    limiter.fail('a');
    limiter.fail('a');
    expect(limiter.retryAfter('a')).toBe(60);
    // 'a' was seen last, 'b' longest ago: 'd' pushes 'b' out, and 'a' stays blocked.
    limiter.fail('d');
    expect(limiter.trackedAddressesForTests).toBe(3);
    expect(limiter.retryAfter('a')).toBe(60);
    limiter.fail('b');
    expect(limiter.retryAfter('b')).toBeUndefined();
    for (let i = 0; i < 10_000; i += 1) limiter.fail(`10.1.${i}`);
    expect(limiter.trackedAddressesForTests).toBe(3);
  });

  it('keeps at most max timestamps per address', () => {
    const clock = fakeClock();
    const limiter = new FailureLimiter({ max: 5, now: () => clock.now });
    for (let i = 0; i < 1000; i += 1) {
      limiter.fail('a');
      clock.tick(10);
    }
    // Only the last 5 are kept: the block ends when the oldest of them (40 ms ago) leaves.
    expect(limiter.retryAfter('a')).toBe(60);
    clock.tick(60_000 - 50);
    expect(limiter.retryAfter('a')).toBeUndefined();
  });

  it('refuses options that are not whole numbers of at least 1', () => {
    expect(() => new FailureLimiter({ max: 0 })).toThrow(
      'FailureLimiter: expected max to be a whole number of at least 1, received 0',
    );
    expect(() => new FailureLimiter({ windowMs: Number.NaN })).toThrow(
      'FailureLimiter: expected windowMs to be a whole number of at least 1, received NaN',
    );
  });
});
