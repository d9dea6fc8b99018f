// What a wake-up's recipient reads, written once for the tests that pin it whole (the unit test of
// wake-ups.ts, the process tests of wake-ups and of phantom agents).

/** A raider wake-up as its recipient reads it: the task's id, the notice's kind, its status when it has one, the summary. */
export const wakeUpText = (taskId: string, kind: string, status: string | undefined, summary: string): string =>
  [
    '<task-notification>',
    `<task-id>${taskId}</task-id>`,
    `<task-type>${kind}</task-type>`,
    ...(status === undefined ? [] : [`<status>${status}</status>`]),
    `<summary>${summary}</summary>`,
    '</task-notification>',
  ].join('\n');
