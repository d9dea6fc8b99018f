// The deadline of a waiting call, per client (issue 28): the table of wait-deadline.ts, and reading
// the client from both eras, including a 2026-era envelope without clientInfo (optional there) and a
// per-request server that has no getClientVersion.
import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  CLAUDE_CODE_HTTP_DEADLINE_MS,
  CLAUDE_CODE_STDIO_DEADLINE_MS,
  callClient,
  DEFAULT_WAIT_DEADLINE_MS,
  waitDeadlineMs,
} from './wait-deadline.js';

/** A call's context with this envelope and _meta (what callClient reads). */
const call = (envelope: Record<string, unknown> | undefined, meta: Record<string, unknown> = {}) =>
  ({ mcpReq: { envelope, _meta: meta } }) as unknown as ServerContext;

describe('callClient', () => {
  it('reads a 2026-era envelope, else what initialize said', () => {
    const modern = call({ 'io.modelcontextprotocol/clientInfo': { name: 'claude-code', version: '2.1.332' } });
    expect(callClient(modern, undefined)).toEqual({ name: 'claude-code', progress: false });
    const legacy = call(undefined, { progressToken: 7 });
    expect(callClient(legacy, { getClientVersion: () => ({ name: 'cursor' }) })).toEqual({
      name: 'cursor',
      progress: true,
    });
  });

  it('takes an envelope without clientInfo and a server without getClientVersion: no name, no throw', () => {
    expect(callClient(call({}), {})).toEqual({ name: undefined, progress: false });
    expect(callClient(call({ 'io.modelcontextprotocol/clientInfo': { name: 42 } }), undefined)).toEqual({
      name: undefined,
      progress: false,
    });
    expect(callClient(undefined, undefined)).toEqual({ name: undefined, progress: false });
  });
});

describe('waitDeadlineMs', () => {
  const stdio = { transport: 'stdio' } as const;
  const http = { transport: 'http' } as const;
  it('gives Claude Code with a progress token its longer deadline, per transport', () => {
    expect(waitDeadlineMs(stdio, { name: 'claude-code', progress: true })).toBe(CLAUDE_CODE_STDIO_DEADLINE_MS);
    expect(waitDeadlineMs(http, { name: 'claude-code', progress: true })).toBe(CLAUDE_CODE_HTTP_DEADLINE_MS);
    expect(CLAUDE_CODE_STDIO_DEADLINE_MS).toBe(1_500_000);
    expect(CLAUDE_CODE_HTTP_DEADLINE_MS).toBe(290_000);
  });

  it('gives everyone else (and Claude Code without progress) 50 s', () => {
    expect(DEFAULT_WAIT_DEADLINE_MS).toBe(50_000);
    expect(waitDeadlineMs(stdio, { name: 'claude-code', progress: false })).toBe(50_000);
    expect(waitDeadlineMs(stdio, { name: 'claude-ai', progress: true })).toBe(50_000);
    expect(waitDeadlineMs(http, { name: undefined, progress: true })).toBe(50_000);
  });

  it('--wait-deadline sets one deadline for every client', () => {
    expect(waitDeadlineMs({ transport: 'stdio', fixedMs: 3_000 }, { name: 'claude-code', progress: true })).toBe(3_000);
  });
});
