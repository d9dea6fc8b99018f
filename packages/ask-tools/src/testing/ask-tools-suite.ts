/**
 * The MCP-level tests of ask_user and AskUserQuestion, written once and run through every
 * harness (each adapter of this package, in each protocol era it serves) with the same golden
 * answers: Claude Code 2.1.332's wordings and raider's refusals, written out in full so that a
 * change of one character fails. Where a protocol differs, the harness says how
 * (`differences`), and the README lists it.
 *
 * Here is the entry, which runs the groups in turn; each group is a file of its own in
 * ask-tools-suite/, with what they share in suite-context.ts.
 */
import { afterEach } from 'vitest';
import { answerers } from './ask-tools-suite/answerers.js';
import { askUserThroughElicitation } from './ask-tools-suite/ask-user-elicitation.js';
import { askUserInput } from './ask-tools-suite/ask-user-input.js';
import { askUserQuestion } from './ask-tools-suite/ask-user-question.js';
import { standaloneMount } from './ask-tools-suite/standalone-mount.js';
import { structuredOutput } from './ask-tools-suite/structured-output.js';
import type { Suite } from './ask-tools-suite/suite-context.js';
import type { Harness } from './harness.js';

/** The shared suite, run through `harness`. */
export function describeAskTools<Server>(harness: Harness<Server>): void {
  const { entry } = harness;
  afterEach(() => harness.closeAll());
  const suite: Suite<Server> = {
    harness,
    entry,
    setup: (handler, options = {}) =>
      harness.connect(() => {
        const server = harness.newServer();
        const answerer = entry.clientAnswerer(server);
        const ask = new entry.AskTools({ ...(answerer ? { answerer } : {}), ...options });
        ask.register(server);
        ask.registerAskUserQuestion(server);
        return server;
      }, handler),
    mounted: (mount) =>
      harness.connect(() => {
        const server = harness.newServer();
        mount(server);
        return server;
      }),
  };
  askUserThroughElicitation(suite);
  answerers(suite);
  askUserInput(suite);
  askUserQuestion(suite);
  standaloneMount(suite);
  structuredOutput(suite);
}
