// The shared suite itself: the groups it registers, in order, each with its tests, in order and by
// name (registered under a skipped describe, so nothing runs twice: v1/ask-tools.test.ts and
// v2/ask-tools.test.ts run it through the four harnesses).
import { describe, expect, it } from 'vitest';
import { describeAskTools } from './ask-tools-suite.js';
import { v1Harness } from './v1-harness.js';

const harness = v1Harness();
describe.skip('the suite, registered', () => describeAskTools(harness));

/** Each group's describe (before the harness's name) and its tests' names, as the suite registers them. */
const GROUPS: [string, string[]][] = [
  [
    'ask_user through elicitation',
    [
      'a free-text question: the answer is the result text',
      'options are a single choice that also takes free text',
      'declined: an error result, never an answer',
      'cancelled: an error result, never an answer',
      'empty: an error result, never an answer',
      'an answer that comes after timeoutMs is the timed-out result',
      'a client without elicitation gets the plain refusal',
      'cancelling the tool call aborts the question',
      'sends progress while waiting when the client gave a progress token',
    ],
  ],
  [
    'answerers',
    [
      'no answerer and a client that cannot elicit: every call is refused',
      'the answerer is asked on every call: one registered after mounting is used',
      'an asker that ignores the signal still cannot block past the timeout',
      'an answerer’s asker keeps the call alive with progress while it waits',
      'an answerer that throws AskError: the server is shutting down',
      'an answerer that throws AskError: declined',
      'an answerer that throws AskError: disconnected',
    ],
  ],
  [
    'ask_user input',
    [
      'rejects {}',
      'rejects {"question":"  "}',
      'rejects {"question":"q","options":["a","a"]}',
      'rejects {"question":"q","options":"a,b"}',
      'rejects {"question":"q","choices":["a"]}',
      'never echoes a huge value: a duplicated 1 MB option is described by its length',
      'describes every argument, and the schema it shows is the one it checks',
      'lists both tools as read-only, not destructive, not open-world',
      'lists the tools as the . entry always has, but for the dialect and execution',
      'an unknown tool',
    ],
  ],
  [
    'AskUserQuestion',
    [
      'asks all questions in one form, with a free-text field beside each and no "Other" option',
      'through the form, every answer an offered label (multiSelect labels joined by ", ")',
      'through the form, an answer typed in the person’s own words (Other) instead of a label',
      'through the form, a multiSelect answer with labels and typed text',
      'through the form, typed text that is exactly an offered label counts as that label',
      'through the form, partly answered with labels: entries for what was answered, nothing said of the rest',
      'through the form, partly answered in the person’s own words',
      'through the form, nothing answered',
      'through the form, only blanks and an empty multiple choice',
      'a multiSelect label holding ", " is still an offered label',
      'without a form, asks question by question: every answer a label',
      'without a form, asks question by question: an answer in the person’s own words',
      'without a form, asks question by question: a question left unanswered',
      'without a form, asks question by question: no answer at all',
      'declined and dismissed forms stay error results',
      'sends progress while the form waits when the client gave a progress token',
      'refuses plainly without elicitation',
      'validates its input: {"questions":[]}',
      'validates its input: {"questions":[{"question":"1","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""}]},{"question":"2","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""}]},{"question":"3","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""}]},{"question":"4","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""}]},{"question":"5","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""}]}]}',
      'validates its input: {"questions":[{"question":"1","header":"H","options":[{"label":"a","description":""}]}]}',
      'validates its input: {"questions":[{"question":"1","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""},{"label":"c","description":""},{"label":"d","description":""},{"label":"e","description":""}]}]}',
      'validates its input: {"questions":[{"question":"same","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""}]},{"question":"same","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""}]}]}',
      'validates its input: {"questions":[{"question":"1","header":"H","options":[{"label":"a","description":""},{"label":"a","description":""}]}]}',
      'validates its input: {"questions":[{"question":"1","header":"","options":[{"label":"a","description":""},{"label":"b","description":""}]}]}',
      'validates its input: {"questions":[{"question":"1","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""}],"multiSelect":"yes"}]}',
      'validates its input: {"questions":[{"question":"1","header":"H","options":[{"label":"a","description":""},{"label":"b","description":""}],"other":true}]}',
      'validates its input: {"questions":[{"question":"1","header":"H","options":[{"label":"a","description":"dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"},{"label":"b","description":""}]}]}',
    ],
  ],
  [
    'registerAskUserQuestion, the standalone mount',
    ['asks through the client’s elicitation, under its name, with the structuredOutput option'],
  ],
  [
    'structuredOutput',
    [
      'off by default: tools/list declares no outputSchema',
      'off by default: results carry text only, no structuredContent',
      'on: both tools declare an output schema',
      'on: results carry structuredContent beside the same text',
      'on: error results stay text only',
    ],
  ],
];

interface Registered {
  name: string;
  tasks?: Registered[];
}

describe('describeAskTools', () => {
  it('registers its six groups, each named with the harness, with their 59 tests in order', ({ task }) => {
    const root = (task.file.tasks as Registered[]).find((registered) => registered.name === 'the suite, registered');
    const groups = (root?.tasks ?? []).map((group) => [group.name, (group.tasks ?? []).map((test) => test.name)]);
    expect(groups).toEqual(GROUPS.map(([name, tests]) => [`${name}, ${harness.name}`, tests]));
    expect(GROUPS.flatMap(([, tests]) => tests)).toHaveLength(59);
  });
});
