/** The suite's group of the standalone registerAskUserQuestion. */
import { describe, expect, it } from 'vitest';
import { labelsOnly, type Suite } from './suite-context.js';

/** The standalone registerAskUserQuestion. */
export function standaloneMount<Server>({ harness, entry }: Suite<Server>): void {
  describe(`registerAskUserQuestion, the standalone mount, ${harness.name}`, () => {
    it('asks through the client’s elicitation, under its name, with the structuredOutput option', async () => {
      for (const structuredOutput of [undefined, true]) {
        const { call, listTools } = await harness.connect(
          () => {
            const server = harness.newServer();
            entry.registerAskUserQuestion(server, { name: 'Ask', ...(structuredOutput ? { structuredOutput } : {}) });
            return server;
          },
          () => ({ action: 'accept', content: { q1: 'b' } }),
        );
        const [tool] = await listTools();
        expect(tool?.name).toBe('Ask');
        expect(tool?.outputSchema === undefined).toBe(!structuredOutput);
        const result = await call('Ask', {
          questions: [
            {
              question: 'A or B?',
              header: 'AB',
              options: [
                { label: 'a', description: '' },
                { label: 'b', description: '' },
              ],
            },
          ],
        });
        const text = labelsOnly('"A or B?"="b"');
        expect(result).toEqual(
          structuredOutput
            ? { content: [{ type: 'text', text }], structuredContent: { answers: { 'A or B?': 'b' } } }
            : { content: [{ type: 'text', text }] },
        );
      }
    });
  });
}
