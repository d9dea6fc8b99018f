/** The demos that are not scenario files record their calls as checked steps, the way the runner does. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StepResult } from './runner.js';

const text = (result: unknown) => ((result as { content: { text: string }[] }).content[0]?.text ?? '').toString();

/**
 * Returns `step(client, label, tool, args, expected)`: calls `tool` with `args` on `client` and
 * records the step in `steps`: its real arguments, what was expected and what was received.
 */
export function checkedSteps(steps: StepResult[]) {
  return async (client: Client, label: string, tool: string, args: Record<string, unknown>, expected: string) => {
    const received = text(await client.callTool({ name: tool, arguments: args }));
    steps.push({
      index: steps.length + 1,
      tool: label,
      args,
      ok: received === expected,
      expected: JSON.stringify(expected),
      received: JSON.stringify(received),
    });
  };
}
