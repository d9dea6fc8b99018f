// The MessageStore contract's argument checks, bound to a store's error classes: which class each
// refusal throws, its text, and the order the checks run in (a store's texts are pinned by the
// store's own tests; these pin the kit's one copy).
import { describe, expect, it } from 'vitest';
import { type MessageChecks, messageChecks, storedFields } from './message-checks.js';

class ArgumentError extends TypeError {}
class OutOfRange extends RangeError {}
class OverLimit extends Error {}

interface Message {
  to: string;
  text: string;
  notification: boolean;
}

const LIMITS = Object.freeze({ maxTextLength: 10, maxInboxMessages: 3, maxAgeMs: 1_000 });
const errors = { argumentError: ArgumentError, rangeError: OutOfRange, limitError: OverLimit };
const checks: MessageChecks<Message, { max?: number }, OverLimit> = messageChecks(errors);

/** What `call` throws: its class and message. */
function thrown(call: () => unknown): [unknown, string] {
  try {
    call();
  } catch (error) {
    return [(error as Error).constructor, (error as Error).message];
  }
  throw new Error('expected a throw');
}

describe('checkAgent', () => {
  it("accepts a name of 1 to 200 characters and refuses anything else, in the contract's words", () => {
    expect(() => checks.checkAgent('take', 'agent', 'a'.repeat(200))).not.toThrow();
    const expected = "take: agent: expected an agent's name (a non-empty string of at most 200 characters), received";
    expect(thrown(() => checks.checkAgent('take', 'agent', ''))).toEqual([ArgumentError, `${expected} ""`]);
    expect(thrown(() => checks.checkAgent('take', 'agent', 7))).toEqual([ArgumentError, `${expected} number`]);
    expect(thrown(() => checks.checkAgent('take', 'agent', undefined))).toEqual([ArgumentError, `${expected} nothing`]);
    expect(thrown(() => checks.checkAgent('take', 'agent', 'a'.repeat(201)))).toEqual([
      ArgumentError,
      `${expected} a string of 201 characters`,
    ]);
  });
});

describe('checkOutgoing', () => {
  const send = (message: unknown, limits = LIMITS) => thrown(() => checks.checkOutgoing(message, limits));

  it('refuses a message of the wrong shape, field by field, before its length', () => {
    expect(send([])).toEqual([
      ArgumentError,
      'send: expected a message { to, text, notification, ... }, received an array',
    ]);
    expect(send({ to: 'bob', from: '', text: 'x'.repeat(99), notification: false })[1]).toMatch(/^send: from: /);
    expect(send({ to: 'bob', text: 7, notification: false })).toEqual([
      ArgumentError,
      'send: text: expected a string, received number',
    ]);
    expect(send({ to: 'bob', text: 'hi', notification: 'no' })).toEqual([
      ArgumentError,
      'send: notification: expected true or false, received "no"',
    ]);
    for (const field of ['about', 'label', 'taskId']) {
      expect(send({ to: 'bob', text: 'x'.repeat(99), notification: true, [field]: 1 })).toEqual([
        ArgumentError,
        `send: ${field}: expected a string or nothing, received number`,
      ]);
    }
  });

  it('refuses a text longer than maxTextLength with the limit error, and accepts one at it', () => {
    expect(send({ to: 'bob', text: 'x'.repeat(11), notification: false })).toEqual([
      OverLimit,
      'send: text: expected at most 10 characters, received 11',
    ]);
    expect(() => checks.checkOutgoing({ to: 'bob', text: 'x'.repeat(10), notification: false }, LIMITS)).not.toThrow();
  });
});

describe("a store's string rule", () => {
  it('runs on each agent name once it is one, then on the texts once the shape is right, before the length', () => {
    const seen: string[] = [];
    const ruled: MessageChecks<Message, object, OverLimit> = messageChecks({
      ...errors,
      checkString: (caller, field) => seen.push(`${caller} ${field}`),
    });
    ruled.checkAgent('peek', 'agent', 'bob');
    expect(seen).toEqual(['peek agent']);
    seen.length = 0;
    expect(() =>
      ruled.checkOutgoing({ to: 'bob', from: 'al', text: 'x'.repeat(11), notification: false }, LIMITS),
    ).toThrow(OverLimit);
    expect(seen).toEqual(['send to', 'send from', 'send text', 'send about', 'send label', 'send taskId']);
    seen.length = 0;
    expect(() => ruled.checkAgent('peek', 'agent', '')).toThrow(ArgumentError);
    expect(seen).toEqual([]);
  });
});

describe('checkTakeOptions and checkWatch', () => {
  it('takes nothing or an object whose leaseMs is a positive number and max a positive integer', () => {
    for (const options of [undefined, {}, { leaseMs: 0.5, max: 3 }]) {
      expect(() => checks.checkTakeOptions(options)).not.toThrow();
    }
    expect(thrown(() => checks.checkTakeOptions(5))).toEqual([
      ArgumentError,
      'take: options: expected an object or nothing, received number',
    ]);
    expect(thrown(() => checks.checkTakeOptions({ leaseMs: '5' }))).toEqual([
      ArgumentError,
      'take: leaseMs: expected a positive number, received "5"',
    ]);
    for (const max of [0, 1.5, Number.POSITIVE_INFINITY, Number.NaN]) {
      expect(thrown(() => checks.checkTakeOptions({ max }))).toEqual([
        OutOfRange,
        `take: max: expected a positive integer, received ${max}`,
      ]);
    }
  });

  it('watches an agent with a function', () => {
    expect(() => checks.checkWatch('bob', () => {})).not.toThrow();
    expect(thrown(() => checks.checkWatch('', () => {}))[1]).toMatch(/^watch: agent: expected an agent's name/);
    expect(thrown(() => checks.checkWatch('bob', 'f'))).toEqual([
      ArgumentError,
      'watch: onMessage: expected a function, received "f"',
    ]);
  });
});

describe('resolveLimits', () => {
  it('puts the given bounds over the defaults, frozen, and hands back the defaults for nothing', () => {
    expect(checks.resolveLimits('open', 'limits', undefined, LIMITS)).toBe(LIMITS);
    const limits = checks.resolveLimits('open', 'limits', { maxInboxMessages: 7 }, LIMITS);
    expect(limits).toEqual({ maxTextLength: 10, maxInboxMessages: 7, maxAgeMs: 1_000 });
    expect(Object.isFrozen(limits)).toBe(true);
  });

  it('names the field they were given in, or only the caller when they are its whole argument', () => {
    expect(thrown(() => checks.resolveLimits('openPostgresLists', 'messageLimits', 3, LIMITS))).toEqual([
      ArgumentError,
      'openPostgresLists: messageLimits: expected an object or nothing, received number',
    ]);
    expect(thrown(() => checks.resolveLimits('openPostgresLists', 'messageLimits', { maxAgeMs: -1 }, LIMITS))).toEqual([
      OutOfRange,
      'openPostgresLists: messageLimits.maxAgeMs: expected a positive number, received -1',
    ]);
    expect(thrown(() => checks.resolveLimits('messageLimits', undefined, null, LIMITS))).toEqual([
      ArgumentError,
      'messageLimits: expected an object or nothing, received null',
    ]);
    expect(thrown(() => checks.resolveLimits('messageLimits', undefined, { maxTextLength: 2.5 }, LIMITS))).toEqual([
      OutOfRange,
      'messageLimits: maxTextLength: expected a positive integer, received 2.5',
    ]);
  });
});

describe('fullInbox', () => {
  it('says what makes room: a take, or a done where what is taken still counts', () => {
    const full = checks.fullInbox('bob', 3);
    expect(full).toBeInstanceOf(OverLimit);
    expect(full.message).toBe(
      'send: the inbox of "bob" holds 3 messages, the most allowed; it takes none until some are taken',
    );
    expect(checks.fullInbox('bob', 3, 'done').message).toBe(
      'send: the inbox of "bob" holds 3 messages, the most allowed (those taken count until done); it takes none until some are done',
    );
  });
});

describe('messageChecks', () => {
  it('hands out functions that stand alone, bound to the classes it was given', () => {
    const { checkTakeOptions, received } = messageChecks(errors);
    expect(() => checkTakeOptions({ max: 0 })).toThrow(OutOfRange);
    expect(received('bob')).toBe('"bob"');
    expect(received([1])).toBe('an array');
  });
});

describe('storedFields', () => {
  it("keeps the contract's fields in its order, leaves out absent optional ones and anything else", () => {
    const full = { taskId: '7', label: 'l', about: 'a', notification: true, text: 't', from: 'f', to: 'bob', extra: 1 };
    const stored = storedFields(full, 42);
    expect(Object.keys(stored)).toEqual(['to', 'from', 'text', 'notification', 'about', 'label', 'taskId', 'sentAt']);
    expect(stored).toEqual({
      to: 'bob',
      from: 'f',
      text: 't',
      notification: true,
      about: 'a',
      label: 'l',
      taskId: '7',
      sentAt: 42,
    });
    const plain = storedFields({ to: 'bob', text: 't', notification: false, from: undefined }, 1);
    expect(Object.keys(plain)).toEqual(['to', 'text', 'notification', 'sentAt']);
  });
});
