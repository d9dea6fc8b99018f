/**
 * TaskRegistry in process, as an agent harness drives it: simulated background agents (timers)
 * run, finish or fail, and notify `main`; the harness takes the messages and shows the
 * `<task-notification>` user messages the model would receive, one as a reminder beside a
 * message the person typed.
 */
import { notificationText, reminderText, TaskRegistry } from '@raider/tasks-registry';

/** What the demo showed, for checks. */
export interface RegistryDemoResult {
  /** The user messages the main conversation received, in order. */
  messages: string[];
  /** The entries' final statuses by id. */
  statuses: Record<string, string>;
}

interface SimulatedAgent {
  description: string;
  ms: number;
  fails?: string;
  report?: string;
}

const AGENTS: SimulatedAgent[] = [
  { description: 'Find the tests', ms: 20, report: 'Found 12 test files under packages/*/src.' },
  { description: 'Read the changelog', ms: 40, report: 'Three breaking changes since 1.0.' },
  { description: 'Check the licences', ms: 60, fails: 'licence scanner not installed' },
];

/** Runs the simulation; `show` receives what a transcript prints. */
export async function registryDemo(show: (text: string) => void = () => {}): Promise<RegistryDemoResult> {
  const tasks = new TaskRegistry();
  for (const agent of AGENTS) {
    const id = tasks.nextId('agent');
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const run = new Promise<string>((resolve, reject) => {
      timer = setTimeout(() => (agent.fails ? reject(new Error(agent.fails)) : resolve(agent.report ?? '')), agent.ms);
    });
    tasks.add({
      id,
      kind: 'agent',
      recipient: 'main',
      description: agent.description,
      background: true,
      stop: () => clearTimeout(timer),
      promise: run,
    });
    show(`started ${id}: ${agent.description}`);
    run.then(
      (report) => {
        tasks.finish(id, 'completed', { report });
        tasks.notify(
          'main',
          notificationText({
            taskId: id,
            toolUseId: `toolu_${id}`,
            status: 'completed',
            summary: `Agent "${agent.description}" finished`,
            result: report,
            usage: { subagent_tokens: 1200, tool_uses: 3, duration_ms: Date.now() - started },
          }),
          { id, label: `background agent ${id} finished` },
        );
      },
      (error: Error) => {
        tasks.finish(id, 'failed', { error: error.message });
        tasks.notify(
          'main',
          notificationText({
            taskId: id,
            status: 'failed',
            summary: `Agent "${agent.description}" failed`,
            result: error.message,
          }),
          { id, label: `background agent ${id} failed` },
        );
      },
    );
  }

  const messages: string[] = [];
  // The first turn: the person types while a notification is due, so it comes as a reminder
  // with Claude Code 2.1.332's header for a notification in the same turn as a real message.
  await tasks.waitFor('main');
  const typed = 'How are the background agents doing?';
  for (const message of tasks.takeMessages('main')) {
    const text = `${typed}\n\n${reminderText(message.content, { withUserMessage: true })}`;
    messages.push(text);
    show(`user message (typed, with a reminder):\n${text}`);
  }
  // Then the harness waits for the rest between turns: 2.1.332 wraps every notification message.
  while (tasks.running({ kind: 'agent' }).length || tasks.pending('main')) {
    await tasks.waitFor('main');
    for (const message of tasks.takeMessages('main')) {
      const text = reminderText(message.content);
      messages.push(text);
      show(`user message:\n${text}`);
    }
  }
  const statuses = Object.fromEntries(tasks.entries().map((e) => [e.id, e.status]));
  return { messages, statuses };
}
