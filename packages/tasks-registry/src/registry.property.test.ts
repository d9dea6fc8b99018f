import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskRegistry } from './index.js';

const recipient = fc.constantFrom('main', 'agent_1', 'agent_2');
const op = fc.oneof(
  fc.record({ op: fc.constant('post' as const), recipient }),
  fc.record({ op: fc.constant('notify' as const), recipient }),
  fc.record({ op: fc.constantFrom('take' as const, 'takeMessages' as const), recipient }),
);

// Each property runs its own numRuns; the budget is ~20x what it takes on a quiet machine.
describe('the queue (property)', { timeout: 120_000 }, () => {
  it('every queued item is taken exactly once, in order, per recipient', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60, size: 'max' }), (ops) => {
        const tasks = new TaskRegistry();
        const queued = new Map<string, string[]>();
        const taken = new Map<string, string[]>();
        ops.forEach((step, n) => {
          const text = `m${n}`;
          if (step.op === 'post' || step.op === 'notify') {
            if (step.op === 'post') tasks.post(step.recipient, text);
            else tasks.notify(step.recipient, text);
            queued.set(step.recipient, [...(queued.get(step.recipient) ?? []), text]);
          } else {
            const items =
              step.op === 'take'
                ? tasks.take(step.recipient)
                : tasks.takeMessages(step.recipient).flatMap((m) => m.items);
            taken.set(step.recipient, [...(taken.get(step.recipient) ?? []), ...items.map((i) => i.text)]);
          }
        });
        for (const r of ['main', 'agent_1', 'agent_2']) {
          const rest = tasks.take(r).map((i) => i.text);
          expect([...(taken.get(r) ?? []), ...rest]).toEqual(queued.get(r) ?? []);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("takeMessages content is its items' texts joined by a newline, a plain message alone", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 20 }), (kinds) => {
        const tasks = new TaskRegistry();
        kinds.forEach((notification, n) => {
          if (notification) tasks.notify('main', `n${n}`);
          else tasks.post('main', `p${n}`);
        });
        for (const message of tasks.takeMessages('main')) {
          expect(message.content).toBe(message.items.map((i) => i.text).join('\n'));
          expect(message.items.every((i) => i.notification === message.notification)).toBe(true);
          if (!message.notification) expect(message.items).toHaveLength(1);
        }
      }),
    );
  });
});
