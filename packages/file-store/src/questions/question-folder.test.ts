// The list folder's question store: the QuestionStore contract (two folder handles standing for two
// processes), then what the folder adds: its layout, the high-water mark, Claude Code's reader
// passing it by, a file that cannot be trusted, a killed writer's leftovers, and the settled
// questions removed lazily.
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeQuestionStoreConformance } from '@raider/tasks-registry/conformance';
import { TaskTools } from '@raider/todo-tools';
import { describe, expect, it } from 'vitest';
import { ClaudeCodeWriter } from '../../test/claude-code-writer.mjs';
import { closedAfter, tempDir } from '../../test/cleanup.js';
import { FOLDER_FILES, openTaskFolder, type TaskFolderOptions } from '../index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const HOUR_MS = 3_600_000;

function open(path: string, options: TaskFolderOptions = {}) {
  return closedAfter(openTaskFolder(path, options));
}

describeQuestionStoreConformance(
  'TaskFolder.questions',
  ({ limits }) => {
    const path = join(tempDir(), 'list');
    return {
      store: open(path, { questionLimits: limits }).questions,
      other: async () => open(path, { questionLimits: limits }).questions,
    };
  },
  { describe, it, expect },
);

const question = (text: string, expiresAt = Date.now() + HOUR_MS) => ({
  asker: 'bob',
  question: text,
  options: ['yes', 'no'],
  expiresAt,
});

describe('the questions in the list folder', () => {
  it('one file per question under .questions/, named by its number, holding the rest as one line of JSON; the mark beside them', async () => {
    const path = join(tempDir(), 'list');
    const { questions } = open(path);
    const first = await questions.ask(question('Ship it?'));
    const second = await questions.ask(question('Now?'));
    expect([first.id, second.id]).toEqual(['ask_1', 'ask_2']);
    expect(readdirSync(path)).toEqual([FOLDER_FILES.questions]);
    const root = join(path, '.questions');
    const names = readdirSync(root).sort();
    expect(names.filter((name) => !name.startsWith('.holder.'))).toEqual(['.highwatermark', '1.json', '2.json']);
    expect(readFileSync(join(root, '.highwatermark'), 'utf8')).toBe('0000000000000002\n');
    const { id: _, ...unnamed } = first;
    expect(readFileSync(join(root, '1.json'), 'utf8')).toBe(`${JSON.stringify(unnamed)}\n`);
    const settled = await questions.settle(second.id, { state: 'answered', answer: 'now', by: 'ana' });
    expect(settled).toEqual({
      settled: { ...second, state: 'answered', answer: 'now', settledBy: 'ana', settledAt: expect.any(Number) },
    });
    // A settle is a rename over the question's file: no other file is left.
    expect(
      readdirSync(root)
        .filter((name) => !name.startsWith('.'))
        .sort(),
    ).toEqual(['1.json', '2.json']);
    expect(JSON.parse(readFileSync(join(root, '2.json'), 'utf8'))).toMatchObject({ state: 'answered', answer: 'now' });
  });

  it('the high-water mark keeps ids for good: a new handle, every question file removed, still asks above it', async () => {
    const path = join(tempDir(), 'list');
    const { questions } = open(path, { questionLimits: { keepSettledMs: 50 } });
    const asked = [await questions.ask(question('one')), await questions.ask(question('two'))];
    for (const { id } of asked) await questions.settle(id, { state: 'withdrawn' });
    await sleep(100);
    // The reads that come upon them remove them.
    for (const { id } of asked) expect(await questions.get(id)).toBeUndefined();
    const root = join(path, '.questions');
    expect(readdirSync(root).filter((name) => name.endsWith('.json'))).toEqual([]);
    const again = await open(path).questions.ask(question('three'));
    expect(again.id).toBe('ask_3');
  });

  it('a damaged mark is reported and rebuilt from the files there, never below them', async () => {
    const path = join(tempDir(), 'list');
    const problems: string[] = [];
    const { questions } = open(path, { onProblem: (problem) => problems.push(problem) });
    await questions.ask(question('one'));
    await questions.ask(question('two'));
    const mark = join(path, '.questions', '.highwatermark');
    writeFileSync(mark, 'garbage');
    const next = await open(path, { onProblem: (problem) => problems.push(problem) }).questions.ask(question('three'));
    expect(next.id).toBe('ask_3');
    expect(problems).toEqual([
      `${mark}: expected a whole number of at most 16 digits; rewritten from the questions there`,
    ]);
    expect(readFileSync(mark, 'utf8')).toBe('0000000000000003\n');
  });

  it("Claude Code's reader and its reset pass the questions by; the tasks' store and watch do too", async () => {
    const path = join(tempDir(), 'list');
    const folder = open(path);
    const tools = new TaskTools({ store: folder.tasks });
    await tools.createTask({ subject: 'Only task', description: '' });
    let woken = 0;
    folder.watch(() => {
      woken += 1;
    });
    await tools.syncTasks();
    await sleep(200);
    woken = 0;
    const kept = await folder.questions.ask(question('kept'));
    await sleep(200);
    expect(woken, 'a question wakes no task watcher').toBe(0);
    const claude = new ClaudeCodeWriter(path);
    expect(claude.list().map((record) => record.id)).toEqual(['1']);
    await tools.updateTask({ taskId: '1', status: 'completed' });
    expect(await claude.resetIfAllCompleted()).toEqual(['1']);
    expect(await folder.questions.open()).toEqual([kept]);
  });

  it('a question file that cannot be trusted (truncated JSON, a symbolic link) is skipped, reported once and moved aside', async () => {
    const path = join(tempDir(), 'list');
    const problems: string[] = [];
    const { questions } = open(path, { onProblem: (problem) => problems.push(problem) });
    const before = await questions.ask(question('before'));
    const root = join(path, '.questions');
    const text = readFileSync(join(root, '1.json'), 'utf8');
    writeFileSync(join(root, '2.json'), text.slice(0, 20));
    symlinkSync('/etc/passwd', join(root, '3.json'));
    expect(await questions.get('ask_2')).toBeUndefined();
    expect(problems).toEqual([
      `${join(root, '2.json')}: not valid JSON (20 characters); the question is skipped, moved aside to 2.json.corrupt`,
    ]);
    expect(await questions.open()).toEqual([before]);
    expect(problems).toHaveLength(2);
    expect(problems[1]).toContain(`${join(root, '3.json')}: is a symbolic link`);
    expect(problems.join('\n')).not.toContain('root:');
    expect(await questions.settle('ask_3', { state: 'withdrawn' })).toBeUndefined();
    // Out of the list: not reported again; their numbers are never handed out.
    expect(await questions.open()).toEqual([before]);
    expect(problems).toHaveLength(2);
    expect((await questions.ask(question('after'))).id).toBe('ask_4');
    expect(
      readdirSync(root)
        .filter((name) => name.endsWith('.corrupt'))
        .sort(),
    ).toEqual(['2.json.corrupt', '3.json.corrupt']);
  });

  it('what a killed writer left is handled: its temporary removed under the lock, a write made durable shown', async () => {
    const path = join(tempDir(), 'list');
    const reopened = () => open(path).questions;
    const first = await reopened().ask(question('one'));
    const root = join(path, '.questions');
    // No process has pid 2^22 + 1 (above Linux's pid_max default).
    const dead = `.question.json.${2 ** 22 + 1}.1.tmp`;
    writeFileSync(join(root, dead), 'half');
    // A settle made durable whose rename its process did not live to make.
    const { id: _, ...unnamed } = first;
    const settled = { ...unnamed, state: 'declined', reason: 'killed', settledAt: Date.now() };
    writeFileSync(join(root, '1.json.sending'), `${JSON.stringify(settled)}\n`);
    expect(await reopened().get(first.id)).toEqual({
      ...first,
      state: 'declined',
      reason: 'killed',
      settledAt: settled.settledAt,
    });
    expect(existsSync(join(root, '1.json.sending'))).toBe(false);
    // The same for an ask (its mark raised, its file durable, not yet renamed): open() shows it.
    writeFileSync(join(root, '2.json.sending'), `${JSON.stringify({ ...unnamed, question: 'two' })}\n`);
    expect((await reopened().open()).map(({ id, question: text }) => [id, text])).toEqual([['ask_2', 'two']]);
    expect(existsSync(join(root, '2.json'))).toBe(true);
    expect((await reopened().ask(question('three'))).id).toBe('ask_3');
    expect(existsSync(join(root, dead))).toBe(false);
  });

  it('a watch begun before the list folder exists is called once a question is asked through another handle', async () => {
    const path = join(tempDir(), 'list');
    const waiting = open(path).questions;
    let calls = 0;
    const stop = waiting.watch(() => {
      calls += 1;
    });
    try {
      expect(existsSync(path)).toBe(false);
      const asked = await open(path).questions.ask(question('the folders are made'));
      await expect.poll(() => calls, { timeout: 20_000 }).toBeGreaterThan(0);
      expect(await waiting.open()).toEqual([asked]);
    } finally {
      stop();
    }
  });

  it('reads make nothing on disk; bad question limits are refused when the folder is opened', async () => {
    const path = join(tempDir(), 'list');
    const { questions } = open(path);
    expect(await questions.open()).toEqual([]);
    expect(await questions.get('ask_1')).toBeUndefined();
    expect(await questions.settle('ask_1', { state: 'withdrawn' })).toBeUndefined();
    questions.watch(() => {})();
    expect(existsSync(path)).toBe(false);
    expect(() => openTaskFolder('/tmp/unused', { questionLimits: { maxOpenQuestions: 0 } })).toThrow(
      /questionLimits: maxOpenQuestions: expected a positive integer, received 0/,
    );
    expect(() => openTaskFolder('/tmp/unused', { questionLimits: { keepSettledMs: '1h' as never } })).toThrow(
      /questionLimits: keepSettledMs: expected a positive number, received "1h"/,
    );
  });
});
