// ask_user's listing with resume, in process (the listing of real servers, checked with ajv:
// test/advertised-schemas.test.ts).
import { advertised } from '@raider/kit/schemas';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RESUME_ID, resumable } from './resumable-schema.js';

/** An input schema as AskTools registers ask_user's: advertised, its properties in its metadata only. */
const asked = advertised(
  z.strictObject({
    question: z.string().describe('The question.'),
    options: z.array(z.string()).max(20).optional().describe('The choices.'),
  }),
  'draft-2020-12',
);

/** The JSON Schema clients are shown for `schema`. */
const shown = (schema: unknown) => z.toJSONSchema(schema as z.ZodObject, { target: 'draft-2020-12' });

describe('resumable', () => {
  it("lists the question's own properties, then resume; none required, unknown keys refused", () => {
    const config = resumable({ inputSchema: asked, description: 'Ask.' });
    expect(shown(config.inputSchema)).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        question: {
          type: 'string',
          description: 'The question. Required, unless the call is {"resume": "ask_N"} alone.',
        },
        options: { type: 'array', items: { type: 'string' }, maxItems: 20, description: 'The choices.' },
        resume: {
          type: 'string',
          pattern: '^ask_[1-9][0-9]{0,15}$',
          description: 'The id of a question still open (ask_N), alone: wait again for its answer, or read it.',
        },
      },
      additionalProperties: false,
    });
    expect(config.description).toBe(
      'Ask. When a call answers that the question is still open as ask_N, call again with only {"resume": "ask_N"} to keep waiting for (or read) the answer.',
    );
    // The advertised schema lets every object through the SDK's check: the tool words a refusal itself.
    expect((config.inputSchema as z.ZodObject).safeParse({ resume: 3, other: true }).success).toBe(true);
  });

  it('makes one schema per advertised one, and leaves the one it was given unchanged', () => {
    const before = shown(asked);
    const first = resumable({ inputSchema: asked }).inputSchema;
    expect(resumable({ inputSchema: asked, description: 'Again.' }).inputSchema).toBe(first);
    expect(shown(asked)).toEqual(before);
    expect(before.required).toEqual(['question']);
  });

  it('refuses, loudly, a schema that shows no properties to list resume beside', () => {
    expect(() => resumable({ inputSchema: z.looseObject({}) })).toThrow(
      "ask_user's input schema shows no properties to list resume beside",
    );
  });

  it('the pattern shown is the check the tool makes', () => {
    const properties = shown(resumable({ inputSchema: asked }).inputSchema).properties as Record<
      string,
      { pattern: string }
    >;
    const pattern = new RegExp(properties.resume?.pattern ?? '');
    for (const id of ['ask_1', 'ask_3', 'ask_1234567890123456', 'ask_0', 'ask_', 'ask_01', 'agent_1', ' ask_1']) {
      expect(pattern.test(id), id).toBe(RESUME_ID.test(id));
    }
    expect(RESUME_ID.test('ask_3')).toBe(true);
    expect(RESUME_ID.test('ask_0')).toBe(false);
  });
});
