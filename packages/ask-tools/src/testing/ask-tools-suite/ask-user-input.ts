/** The suite's group of ask_user's arguments and the two tools' listing. */
import { describe, expect, it } from 'vitest';
import { golden, type Suite, textOf, withoutDifferences } from './suite-context.js';

/** ask_user's arguments and what tools/list shows of both tools. */
export function askUserInput<Server>(suite: Suite<Server>): void {
  describe(`ask_user input, ${suite.harness.name}`, () => {
    argumentsChecked(suite);
    toolsListed(suite);
  });
}

/** Bad arguments are refused in words, a huge value never echoed; every argument is described. */
function argumentsChecked<Server>({ setup }: Suite<Server>): void {
  it.each([
    [{}, 'Error: question: expected a question (a non-empty text), received nothing'],
    [{ question: '  ' }, 'Error: question: expected a question (a non-empty text), received "  "'],
    [{ question: 'q', options: ['a', 'a'] }, 'Error: options: expected the options to be unique, received "a" twice'],
    [{ question: 'q', options: 'a,b' }, 'Error: options: expected a list of option texts, received "a,b"'],
    [{ question: 'q', choices: ['a'] }, 'Error: unknown key "choices"'],
  ])('rejects %j', async (args, message) => {
    const { call } = await setup(() => ({ action: 'accept', content: { answer: 'x' } }));
    expect(await call('ask_user', args)).toEqual({ content: [{ type: 'text', text: message }], isError: true });
  });

  it('never echoes a huge value: a duplicated 1 MB option is described by its length', async () => {
    const { call } = await setup(() => ({ action: 'accept', content: { answer: 'x' } }));
    const big = 'o'.repeat(1_000_000);
    const result = await call('ask_user', { question: 'q', options: [big, big] });
    expect((result as { isError?: boolean }).isError).toBe(true);
    const text = textOf(result) ?? '';
    expect(text.length).toBeLessThan(300);
    expect(text).toContain('a string of 1000000 characters');
  });

  it('describes every argument, and the schema it shows is the one it checks', async () => {
    const { listTools } = await setup();
    for (const tool of await listTools()) {
      for (const [key, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as { description?: string }).description, `${tool.name}.${key}`).toMatch(/\w{3,}/);
      }
      expect(tool.inputSchema).toMatchObject({ additionalProperties: false });
    }
  });
}

/** tools/list: the annotations, the golden listing but for the dialect and execution, an unknown tool. */
function toolsListed<Server>({ harness, setup }: Suite<Server>): void {
  it('lists both tools as not read-only (they wait for a person), not destructive, not idempotent, not open-world', async () => {
    const { listTools } = await setup();
    const tools = await listTools();
    for (const tool of tools) {
      expect(tool.annotations).toEqual({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      });
    }
    expect(tools.map((t) => t.name)).toEqual(['ask_user', 'AskUserQuestion']);
  });

  it('lists the tools as the . entry always has, but for the dialect and execution', async () => {
    for (const structuredOutput of [false, true]) {
      const { listTools } = await setup(undefined, { structuredOutput });
      const tools = await listTools();
      const expected = structuredOutput ? golden.structuredOutputOn : golden.structuredOutputOff;
      expect(withoutDifferences(tools)).toEqual(withoutDifferences(expected));
      for (const tool of tools) {
        expect(tool.inputSchema.$schema).toBe(harness.differences.dialect);
        if (structuredOutput)
          expect((tool.outputSchema as { $schema?: string }).$schema).toBe(harness.differences.dialect);
        expect(tool.execution).toEqual(harness.differences.execution);
      }
    }
  });

  it('an unknown tool', async () => {
    const { call } = await setup();
    const { unknownTool } = harness.differences;
    if (unknownTool.rejects) {
      await expect(call('nope', {})).rejects.toMatchObject({ code: -32602, message: unknownTool.message });
    } else {
      expect(await call('nope', {})).toEqual({ content: [{ type: 'text', text: unknownTool.text }], isError: true });
    }
  });
}
