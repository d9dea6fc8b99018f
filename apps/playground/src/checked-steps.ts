/** The demos that are not scenario files record their calls as checked steps, the way the runner does. */
import type { StepResult } from './runner.js';
import type { PlaygroundClient } from './server-process.js';

/**
 * Returns `step(client, label, tool, args, expected)`: calls `tool` with `args` on `client` and
 * records the step in `steps`: its real arguments, what was expected and what was received.
 */
export function checkedSteps(steps: StepResult[]) {
  return async (
    client: PlaygroundClient,
    label: string,
    tool: string,
    args: Record<string, unknown>,
    expected: string,
  ) => {
    const result = await client.callTool({ name: tool, arguments: args });
    const received = result.content[0]?.text ?? '';
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
