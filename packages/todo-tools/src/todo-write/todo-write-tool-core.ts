/**
 * TodoWriteToolCore: todo_write, shaped after Claude Code's TodoWrite (the model sends the whole
 * list every call), with no MCP SDK: its direct API and its definition as a tool. Each entry's
 * `TodoWriteTool` (`.` for SDK v1, `./v2` for SDK v2) is this class plus the register method and
 * server of its SDK.
 */
import { DEFAULT_LIMITS, type TaskListLimits } from '../limits.js';
import type { ListStore, TodoWriteState } from '../store/list-store.js';
import type { ToolDefinition } from '../tool-definition.js';
import { presentationOf } from '../tool-presentation.js';
import type { TodoWriteItem } from '../types.js';
import { renderTodos, TodoWrite } from './todo-write.js';

/** Options of {@link TodoWriteToolCore} (and of each entry's `TodoWriteTool`). */
export interface TodoWriteToolOptions {
  /**
   * Called with the checked list after every call that accepted one (never for one that was
   * rejected). It runs synchronously; what it throws reaches the caller.
   */
  onUpdate?: (list: TodoWriteItem[]) => void;
  /** Size limits; any left out take the defaults of DEFAULT_LIMITS. */
  limits?: Partial<TaskListLimits>;
  /** Where todo_write's last list is kept; without one todo_write holds nothing. */
  store?: ListStore<TodoWriteState>;
  /**
   * Results carry `structuredContent` beside the text (and the tool declares an output schema).
   * Default false: Claude Code shows its model the structured content instead of the text when a
   * result carries it, so without this the model reads the rendered list.
   */
  structuredOutput?: boolean;
  /** The tool carries `_meta["anthropic/alwaysLoad"]: true` (Claude Code does not defer it behind ToolSearch). */
  alwaysLoad?: boolean;
}

/**
 * todo_write without an SDK (see each entry's `TodoWriteTool`). It holds no list of its own: it
 * checks the list it is given, keeps it in the store when there is one, and hands it to `onUpdate`.
 */
export class TodoWriteToolCore {
  /** The limits in force. */
  readonly limits: Readonly<TaskListLimits>;
  private readonly todoWrite: TodoWrite;

  constructor(options: TodoWriteToolOptions = {}) {
    this.limits = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits });
    this.todoWrite = new TodoWrite({
      limits: this.limits,
      onUpdate: options.onUpdate,
      store: options.store,
      presentation: presentationOf(options),
    });
  }

  /** todo_write, as a definition (what `register` mounts). Built once: every call returns the same frozen array. */
  definitions(): readonly ToolDefinition[] {
    return this.todoWrite.definitions();
  }

  /**
   * The list as todo_write stores it (activeForm defaulted to content), or throws a
   * TodoWriteListError naming the first wrong item (its index and what is wrong).
   */
  check(items: unknown): TodoWriteItem[] {
    return this.todoWrite.check(items);
  }

  /** The text todo_write answers for `list`: a count line, then one line per item. */
  render(list: readonly TodoWriteItem[]): string {
    return renderTodos(list);
  }
}
