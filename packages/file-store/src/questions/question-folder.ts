/**
 * The questions of a list, in the list folder (`TaskFolder.questions`, a QuestionStore of
 * @raider/tasks-registry): `.questions/` (hidden, so Claude Code's reader and its reset pass it by)
 * holds one file per question, `<n>.json` for `ask_<n>` (question-file.ts), the high-water mark
 * `.highwatermark` (question-mark.ts) and a lock of its own, `.questions/.lock`, made as the
 * message lock is (message-lock.ts: a hard link, fenced, taken over once stale).
 *
 * - An ask writes its file whole under a temporary name before the lock; under it, counts the open
 *   questions, raises the mark (fsynced), links the file in as `<n>.json.sending`, fsyncs it and the
 *   folder, and renames it `<n>.json`; then it answers (message-publish.ts, as a send).
 * - A settle, under the lock, reads the question's file: still open, it writes the settled question
 *   the same way (a rename over the file), so the first outcome wins and a second finds it settled.
 * - Reads take no lock: `get` reads one file, `open` the files of the questions open at this
 *   handle's last look (an ended question never changes again). A question that ended
 *   `keepSettledMs` ago is removed by the read that comes upon it.
 * - `watch` is an inbox's watch on `.questions/` (inbox-watch.ts): a file renamed in there.
 */
import { dirname, join } from 'node:path';
import type {
  OutgoingQuestion,
  QuestionLimits,
  QuestionOutcome,
  QuestionStore,
  SettleResult,
  StoredQuestion,
} from '@raider/tasks-registry';
import { exists } from '../disk.js';
import { FOLDER_FILES } from '../folder-files.js';
import { type HeldLock, type LockFence, queued } from '../list-lock.js';
import { fileError } from '../messages/file-error.js';
import { InboxWatch } from '../messages/inbox-watch.js';
import { MessageLock } from '../messages/message-lock.js';
import { discard, MessagePublisher, type PublishWords, prepareMessage } from '../messages/message-publish.js';
import { checkListener, checkOutcome, checkOutgoingQuestion, checkQuestionId, tooManyOpen } from './question-checks.js';
import { formatQuestion, type QuestionRecord, questionId, questionNumber, settledRecord } from './question-file.js';
import { QuestionFiles } from './question-files.js';
import { QuestionMark } from './question-mark.js';

const LOCK_NAME = "the questions' lock";

/** How an ask's steps are told in its errors. */
const ASK_WORDS: PublishWords = Object.freeze({
  file: 'question.json',
  nothing: 'nothing was asked',
  maybe: 'the question may have been asked',
  shownLater: 'the question was asked, and is shown at the next call',
  lock: LOCK_NAME,
});

/** How a settle's steps are told in its errors. */
const SETTLE_WORDS: PublishWords = Object.freeze({
  file: 'question.json',
  nothing: 'nothing was settled',
  maybe: 'the question may have been settled',
  shownLater: 'the question was settled, and is shown at the next call',
  lock: LOCK_NAME,
});

/** Options of a list folder's question store. */
export interface QuestionFolderOptions {
  /** The bounds of the list's questions. */
  limits: Readonly<QuestionLimits>;
  /** A lock untouched this long is stale and taken over (the list lock's stale time). */
  staleMs: number;
  /** Told of a question file that cannot be trusted (moved aside), and of a write shown only later. */
  report: (message: string) => void;
}

/** A list folder's question store, and `close()`, which stops its watch. */
export interface FolderQuestionStore extends QuestionStore {
  close(): void;
}

/** Opens the question store of the list folder `listPath` (nothing touches the disk before a call). */
export function openQuestionFolder(listPath: string, options: QuestionFolderOptions): FolderQuestionStore {
  return new QuestionFolder(listPath, options);
}

/** The question store of one holder of a list folder. */
class QuestionFolder implements FolderQuestionStore {
  private readonly root: string;
  private readonly lock: MessageLock;
  private readonly files: QuestionFiles;
  private readonly mark: QuestionMark;
  private readonly asks: MessagePublisher;
  private readonly settles: MessagePublisher;
  private watcher: InboxWatch | undefined;

  constructor(
    private readonly listPath: string,
    private readonly options: QuestionFolderOptions,
  ) {
    this.root = join(listPath, FOLDER_FILES.questions);
    this.lock = new MessageLock(this.root, options.staleMs, LOCK_NAME);
    this.files = new QuestionFiles(this.root, options.limits.keepSettledMs, options.report);
    this.mark = new QuestionMark(this.root, options.report);
    this.asks = new MessagePublisher(listPath, options.report, ASK_WORDS);
    this.settles = new MessagePublisher(listPath, options.report, SETTLE_WORDS);
  }

  async ask(question: OutgoingQuestion): Promise<StoredQuestion> {
    const askedAt = Date.now();
    checkOutgoingQuestion(question, this.options.limits, askedAt);
    const record: QuestionRecord = {
      asker: question.asker,
      question: question.question,
      // A copy: the asker's array may change after the ask; the stored one never does.
      options: [...question.options],
      askedAt,
      expiresAt: question.expiresAt,
      state: 'open',
    };
    // Written whole before the lock is taken (a new file's inode is the costly part): the lock is held to name it.
    const prepared = await prepareMessage(this.root, formatQuestion(record), ASK_WORDS);
    let n: number;
    try {
      n = await this.locked(ASK_WORDS.nothing, async (fence) => {
        const listing = await this.files.list(true);
        const open = await this.openOf(listing.numbers, true);
        if (open.length >= this.options.limits.maxOpenQuestions) {
          throw tooManyOpen(this.options.limits.maxOpenQuestions);
        }
        const next = await this.mark.next(listing.highest);
        await this.asks.publish(this.root, prepared, next, fence);
        return next;
      });
    } finally {
      await discard(prepared);
    }
    this.watcher?.wake();
    return { id: questionId(n), ...record };
  }

  async get(id: string): Promise<StoredQuestion | undefined> {
    checkQuestionId('get', id);
    const n = questionNumber(id);
    if (n === undefined) return undefined;
    let read = await this.files.read(n);
    // Missing or open, it may have a newer version made durable by a write that did not show it
    // (its process killed between its fsync and its rename): shown under the lock, then read.
    // (One that ended is never written again.)
    const ended = 'record' in read && read.record !== undefined && read.record.state !== 'open';
    if ('record' in read && !ended && (await exists(`${this.files.path(n)}.sending`))) {
      await this.locked('nothing was read', () => this.files.list(true));
      read = await this.files.read(n);
    }
    if ('problem' in read) {
      await this.quarantine(n, 'nothing was read');
      return undefined;
    }
    return read.record && this.files.current(read.record, n, Date.now());
  }

  async open(): Promise<StoredQuestion[]> {
    let listing = await this.files.list(false);
    // A write made durable and not shown (its writer killed), or one under way: shown under the lock.
    if (listing.sending) listing = await this.locked('nothing was read', () => this.files.list(true));
    return this.openOf(listing.numbers);
  }

  async settle(id: string, outcome: QuestionOutcome): Promise<SettleResult | undefined> {
    checkQuestionId('settle', id);
    checkOutcome(outcome, this.options.limits);
    const n = questionNumber(id);
    if (n === undefined || !(await exists(this.root))) return undefined;
    const result = await this.locked(SETTLE_WORDS.nothing, async (fence) => {
      await this.files.list(true);
      const read = await this.files.read(n);
      if ('problem' in read) {
        await this.files.moveAside(n, read.problem);
        return undefined;
      }
      const now = Date.now();
      const current = read.record && (await this.files.current(read.record, n, now));
      if (!read.record || !current) return undefined;
      if (current.state !== 'open') return { already: current };
      const settled = settledRecord(read.record, outcome, now);
      const prepared = await prepareMessage(this.root, formatQuestion(settled), SETTLE_WORDS);
      try {
        await this.settles.publish(this.root, prepared, n, fence);
      } finally {
        await discard(prepared);
      }
      this.files.noteEnded(n, now);
      return { settled: { id, ...settled } };
    });
    if (result && 'settled' in result) this.watcher?.wake();
    return result;
  }

  watch(listener: () => void): () => void {
    checkListener(listener);
    this.watcher ??= new InboxWatch(this.root, [this.listPath, dirname(this.listPath)]);
    const watched = this.watcher;
    const stop = watched.add(listener);
    return () => {
      stop();
      if (!watched.listened && this.watcher === watched) this.watcher = undefined;
    };
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.lock.close();
  }

  /**
   * The open questions among the files `numbers`, oldest first: only those not known ended are
   * read. A file that cannot be trusted is moved aside (under the lock, taken unless `underLock`:
   * the caller holds it) and skipped.
   */
  private async openOf(numbers: readonly number[], underLock = false): Promise<StoredQuestion[]> {
    const open: StoredQuestion[] = [];
    const now = Date.now();
    for (const n of numbers) {
      if (await this.files.knownEnded(n, now)) continue;
      const read = await this.files.read(n);
      if ('problem' in read) {
        if (underLock) await this.files.moveAside(n, read.problem);
        else await this.quarantine(n, 'nothing was read');
        continue;
      }
      const question = read.record && (await this.files.current(read.record, n, now));
      if (question?.state === 'open') open.push(question);
    }
    return open;
  }

  /** Moves question `n`'s file aside when it still cannot be trusted, read again under the lock. */
  private async quarantine(n: number, outcome: string): Promise<void> {
    await this.locked(outcome, async () => {
      const again = await this.files.read(n);
      if ('problem' in again) await this.files.moveAside(n, again.problem);
    });
  }

  /**
   * Runs `fn` holding the questions' lock (after every earlier call of this process on it).
   * Rejects with a ListFileError ending in `outcome` when the lock cannot be had.
   */
  private locked<T>(outcome: string, fn: (fence: LockFence) => Promise<T>): Promise<T> {
    return queued(this.lock.lockPath, async () => {
      let held: HeldLock;
      try {
        held = await this.lock.take();
      } catch (error) {
        throw fileError(this.root, error, outcome);
      }
      try {
        return await fn(held);
      } finally {
        await held.release();
      }
    });
  }
}
