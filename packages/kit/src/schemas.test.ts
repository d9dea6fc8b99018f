// Advertised schemas show clients the real JSON Schema and let any object through; formatIssues
// words a failed parse in one line.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { advertised, advertisedOutput, formatIssues } from './schemas.js';

const input = z.strictObject({
  subject: z.string().max(200).describe('What to do.'),
  owner: z.string().optional(),
  blocks: z.array(z.string()).max(3).optional(),
});

describe('formatIssues', () => {
  it('joins each issue as field: message, the root one without a field', () => {
    const nested = z.object({ todos: z.array(z.object({ status: z.enum(['a', 'b'], { error: 'expected a or b' }) })) });
    const parsed = nested.safeParse({ todos: [{ status: 'a' }, { status: 'c' }] });
    expect(parsed.success).toBe(false);
    expect(formatIssues((parsed as { error: z.ZodError }).error)).toBe('todos.1.status: expected a or b');
    const root = z.string({ error: 'expected a string' }).safeParse(1);
    const two = z.object({ a: z.string({ error: 'A' }), b: z.number({ error: 'B' }) }).safeParse({});
    expect(formatIssues((root as { error: z.ZodError }).error)).toBe('expected a string');
    expect(formatIssues((two as { error: z.ZodError }).error)).toBe('a: A; b: B');
  });
});

describe('advertised', () => {
  it("shows clients the real schema's JSON Schema, required and unknown keys refused, in each dialect", () => {
    for (const dialect of ['draft-7', 'draft-2020-12'] as const) {
      const shown = z.toJSONSchema(advertised(input, dialect), { target: dialect, io: 'input' });
      const real = z.toJSONSchema(input, { target: dialect, io: 'input' });
      expect(shown).toEqual(real);
      expect(shown.$schema).toBe(real.$schema);
      expect(shown.required).toEqual(['subject']);
      expect(shown.additionalProperties).toBe(false);
    }
  });

  it("lets any object through the SDK's check (the tool checks and words the refusal itself)", () => {
    const made = advertised(input);
    expect(made.safeParse({ subject: 7, extra: true }).success).toBe(true);
    expect(made.safeParse({}).success).toBe(true);
    expect(made.parse({ subject: 7, extra: true })).toEqual({ subject: 7, extra: true });
  });

  it('is made once per schema and dialect', () => {
    expect(advertised(input)).toBe(advertised(input, 'draft-7'));
    expect(advertised(input, 'draft-2020-12')).toBe(advertised(input, 'draft-2020-12'));
    expect(advertised(input, 'draft-2020-12')).not.toBe(advertised(input));
  });
});

describe('advertisedOutput', () => {
  const output = {
    tasks: z.array(z.object({ id: z.string(), status: z.enum(['pending', 'completed']) })),
    note: z.string().optional(),
  };

  it('shows the JSON Schema of the real output and passes any object', () => {
    for (const dialect of ['draft-7', 'draft-2020-12'] as const) {
      const made = advertisedOutput(output, dialect);
      const shown = z.toJSONSchema(made, { target: dialect, io: 'output' });
      expect(shown).toEqual(z.toJSONSchema(z.object(output), { target: dialect, io: 'output' }));
      expect(made.safeParse({ tasks: 'not a list' }).success).toBe(true);
    }
  });
});
