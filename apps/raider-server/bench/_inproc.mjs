import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createConversation } from '../dist/index.js';
async function connect(server) {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: 'c', version: '1' });
  await client.connect(a);
  return client;
}
const conv = createConversation({ family: 'tasks', names: 'raider', limits: { maxTasks: 20000 } });
const rc = await connect(conv.server);
for (let i = 1; i <= 1000; i++) await rc.callTool({ name: 'task_create', arguments: { subject: `T${i}`, description: '' } });
const echo = new McpServer({ name: 'echo', version: '1' });
echo.registerTool('echo', { description: 'Echo', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
const ec = await connect(echo);
const time = async (f, n) => { const s = process.hrtime.bigint(); for (let i = 0; i < n; i++) await f(i); return Number(process.hrtime.bigint() - s) / 1e3 / n; };
const upd = (i) => rc.callTool({ name: 'task_update', arguments: { taskId: '500', status: i % 2 ? 'pending' : 'in_progress' } });
const get = () => rc.callTool({ name: 'task_get', arguments: { taskId: '500' } });
const ech = () => ec.callTool({ name: 'echo', arguments: { text: 'hi' } });
if (process.env.ONLY) { for (let r = 0; r < 5; r++) await time(process.env.ONLY === "echo" ? ech : upd, 20000); } else for (let r = 0; r < 5; r++) console.log("update", (await time(upd, 20000)).toFixed(1), "get", (await time(get, 20000)).toFixed(1), "echo", (await time(ech, 20000)).toFixed(1), "µs");
