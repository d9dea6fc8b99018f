// The messaging tools as clients see them: names per name set, schemas, and the checks of arguments.
import { describe, expect, it } from 'vitest';
import { MAX_WAIT_SECONDS, sendProblem, sendSchema, shownAs, toolNames, unknownArgument } from './message-tools.js';

describe('the messaging tools', () => {
  it("are send_message and wait_for_messages, or Claude Code's SendMessage (with summary) and WaitForMessages", () => {
    expect(toolNames('raider')).toEqual({
      send: 'send_message',
      wait: 'wait_for_messages',
      sendArgs: ['to', 'message', 'taskId'],
    });
    expect(toolNames('claude').send).toBe('SendMessage');
    expect(Object.keys((sendSchema('claude') as { properties: object }).properties)).toEqual([
      'to',
      'summary',
      'message',
      'taskId',
    ]);
    expect(Object.keys((sendSchema('raider') as { properties: object }).properties)).toEqual([
      'to',
      'message',
      'taskId',
    ]);
  });

  it('check their arguments, one refusal naming the field', () => {
    const allowed = toolNames('raider').sendArgs;
    expect(sendProblem({ to: 'b', message: 'hi' }, allowed)).toBeUndefined();
    expect(sendProblem({ to: 'b', message: 'hi', summary: 'x' }, allowed)).toBe(
      'unknown argument "summary": expected to, message, taskId',
    );
    expect(sendProblem({ to: 3, message: 'hi' }, allowed)).toMatch(/^to: expected an agent name or "\*", received /);
    expect(sendProblem({ to: 'b', message: '  ' }, allowed)).toMatch(/^message: expected a non-empty text/);
    expect(sendProblem({ to: 'b', message: 'hi', taskId: 1 }, allowed)).toMatch(/^taskId: expected a task id/);
    expect(unknownArgument({ a: 1, b: 2 }, [])).toBe('unknown arguments "a", "b": expected ');
  });

  it('show clients a JSON Schema of the dialect asked for, and let every value through to the checks', () => {
    const schema = shownAs({ type: 'object' })['~standard'];
    expect(schema.jsonSchema.input({ target: 'draft-07' })).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
    });
    expect(() => schema.jsonSchema.input({ target: 'openapi-3.0' })).toThrow(
      'no JSON Schema for the target openapi-3.0',
    );
    expect(schema.validate(42)).toEqual({ value: 42 });
    expect(MAX_WAIT_SECONDS).toBe(50);
  });
});
