// When the board app is offered: once a server's client is known to render MCP Apps.
import { describe, expect, it, vi } from 'vitest';
import { openServer } from '../../conversation/conversation-server.js';
import { whenAppsRendered } from './apps-rendered.js';

const server = () => openServer({ family: 'tasks', names: 'raider', askTimeoutMs: 1000 });

describe('when the board app is offered', () => {
  it('a 2026-era request that announces MCP Apps is offered the board app at once; one that does not, never', () => {
    const offer = vi.fn();
    whenAppsRendered(server(), 'modern', { clientCapabilities: {} }, offer);
    expect(offer).not.toHaveBeenCalled();
    const apps = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
    whenAppsRendered(server(), 'modern', { clientCapabilities: apps }, offer);
    expect(offer).toHaveBeenCalledTimes(1);
    const legacy = server();
    whenAppsRendered(legacy, 'legacy', undefined, offer);
    expect(legacy.server.oninitialized).toBeTypeOf('function');
  });
});
