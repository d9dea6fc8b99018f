/**
 * The fields of a task that an update sets to the value given (its texts, owner, metadata and
 * status), named alike and in the same order by both families that keep tasks by id: the task
 * tools report the changed ones in it (`Updated task #3 subject, status`, Claude Code's order), and
 * the `todo` tool's update takes them in it (rpiv-todo's parameters, as its refusal lists them). A
 * task's links are not among them: each family changes those by ids added (and, for `todo`,
 * removed), under names of its own.
 */
export const TASK_FIELDS = ['subject', 'description', 'activeForm', 'owner', 'metadata', 'status'] as const;
