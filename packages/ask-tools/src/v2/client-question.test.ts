// The 2026-era round in pieces, on contexts as the SDK builds them: where the answer of a retry is,
// and whether a client can answer a form in either era.
import { CLIENT_CAPABILITIES_META_KEY, type ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { askClient, clientAnswer, clientCanAnswerForms, isModernRequest, questionKey } from './client-question.js';

const context = (mcpReq: Record<string, unknown>) => ({ mcpReq }) as unknown as ServerContext;
const server = (capabilities?: Record<string, unknown>) => ({ getClientCapabilities: () => capabilities });

describe('clientAnswer', () => {
  it('finds nothing on a first call', () => {
    expect(clientAnswer(context({}))).toBeUndefined();
    expect(clientAnswer(context({ inputResponses: { other: { action: 'accept' } } }))).toBeUndefined();
  });

  it('reads the form under the question key, with the time it was asked', () => {
    const answer = { action: 'accept', content: { answer: 'yes' } };
    expect(clientAnswer(context({ inputResponses: { [questionKey(1234)]: answer } }))).toEqual({
      kind: 'form',
      response: answer,
      askedAt: 1234,
    });
    expect(clientAnswer(context({ inputResponses: { 'question@5': { action: 'decline' } } }))).toEqual({
      kind: 'form',
      response: { action: 'decline', content: undefined },
      askedAt: 5,
    });
  });

  it('an answer of another kind, or one the SDK dropped as wrapped, is unreadable', () => {
    const sampled = { role: 'assistant', content: { type: 'text', text: 'x' } };
    expect(clientAnswer(context({ inputResponses: { 'question@5': sampled } }))).toEqual({
      kind: 'unreadable',
      askedAt: 5,
    });
    expect(clientAnswer(context({ inputResponses: {}, droppedInputResponseKeys: ['question@5'] }))).toEqual({
      kind: 'unreadable',
      askedAt: undefined,
    });
  });
});

describe('clientCanAnswerForms', () => {
  it('reads the request envelope in the 2026 era, the initialize capabilities in the 2025 era', () => {
    const modern = (capabilities: unknown) => context({ envelope: { [CLIENT_CAPABILITIES_META_KEY]: capabilities } });
    expect(clientCanAnswerForms(server(), modern({ elicitation: { form: {} } }))).toBe(true);
    expect(clientCanAnswerForms(server(), modern({}))).toBe(false);
    expect(clientCanAnswerForms(server({ elicitation: { form: {} } }), context({}))).toBe(true);
    expect(clientCanAnswerForms(server({}), context({}))).toBe(false);
    expect(clientCanAnswerForms(server(), context({}))).toBe(false);
  });

  it('counts a bare elicitation as forms, and URL mode alone as none', () => {
    expect(clientCanAnswerForms(server({ elicitation: {} }), context({}))).toBe(true);
    expect(clientCanAnswerForms(server({ elicitation: { url: {} } }), context({}))).toBe(false);
  });

  it('tells the eras apart by the envelope', () => {
    expect(isModernRequest(context({ envelope: {} }))).toBe(true);
    expect(isModernRequest(context({}))).toBe(false);
  });
});

describe('askClient', () => {
  it('embeds the form as one elicitation/create under the key of when it was asked', () => {
    const form = { message: 'Which?', requestedSchema: { type: 'object' as const, properties: {} } };
    expect(askClient(form, 42)).toEqual({
      resultType: 'input_required',
      inputRequests: {
        'question@42': {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'Which?', requestedSchema: form.requestedSchema },
        },
      },
    });
  });
});
