// A process of its own on a list folder's questions, for the kill -9 tests (bundled by
// test/question-folder.processes.test.ts, run as `node worker.mjs '<command as JSON>'`). It prints
// one JSON line on stdout per call that resolved, then waits to be killed.
import type { SettleResult, StoredQuestion } from '@raider/tasks-registry';
import { openTaskFolder } from '../src/index.js';

/** What a worker is told to do. */
export type QuestionWorkerCommand =
  /** Asks without end (questions `<n>`), one after another, printing each as its ask resolves. */
  | { mode: 'ask'; path: string }
  /** Settles `id` with an answer, prints the result, then waits. */
  | { mode: 'settle'; path: string; id: string };

/** What a worker prints, one JSON line each. */
export type QuestionWorkerLine = { asked: StoredQuestion } | { settled: SettleResult | undefined } | { failed: string };

const print = (line: QuestionWorkerLine) => process.stdout.write(`${JSON.stringify(line)}\n`);
const command = JSON.parse(process.argv[2] as string) as QuestionWorkerCommand;

async function main(): Promise<void> {
  const { questions } = openTaskFolder(command.path);
  if (command.mode === 'settle') {
    print({ settled: await questions.settle(command.id, { state: 'answered', answer: 'yes', by: 'worker' }) });
  } else {
    for (let n = 1; ; n += 1) {
      print({
        asked: await questions.ask({
          asker: 'bob',
          question: String(n),
          options: [],
          expiresAt: Date.now() + 3_600_000,
        }),
      });
    }
  }
  // Kept alive until killed: what it printed is all it did.
  setInterval(() => {}, 60_000);
}

main().catch((error: unknown) => {
  print({ failed: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
