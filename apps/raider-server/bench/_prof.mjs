import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const transport = new StdioClientTransport({ command: 'taskset', args: ['-c', '1', process.execPath, '--cpu-prof', '--cpu-prof-dir=/tmp/prof2', ...(process.env.SERVER ? [process.env.SERVER] : ['dist/cli.js', '--max-tasks', '20000'])], env: { PATH: process.env.PATH, RAIDER_LOG_LEVEL: 'error' }, stderr: 'ignore' });
const client = new Client({ name: 'b', version: '1' });
await client.connect(transport);
if (!process.env.SERVER) for (let i = 1; i <= 1000; i++) await client.callTool({ name: 'task_create', arguments: { subject: `Task ${i}`, description: '' } });
const t = [];
for (let k = 0; k < 20000; k++) { const s = process.hrtime.bigint(); if (process.env.SERVER) await client.callTool({ name: 'echo', arguments: { text: 'hi' } }); else await client.callTool({ name: 'task_update', arguments: { taskId: '500', status: k % 2 ? 'pending' : 'in_progress' } }); t.push(Number(process.hrtime.bigint() - s) / 1e6); }
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(3);
console.log('p50', med(t.slice(50)));
await client.close();
