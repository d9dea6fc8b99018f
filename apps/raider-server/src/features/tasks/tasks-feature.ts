/**
 * The task-list feature of a conversation: the family's tools (families.ts) on every server, what
 * raider://tasks and the boards read of the list, and a task's status set from a board.
 */
import type { TaskListLimits, ToolRegistrar } from '@raider/todo-tools/v2';
import type { Feature, FeatureServer } from '../../conversation/feature.js';
import type { ListHandle } from '../../lists/list-handle.js';
import type { Logger } from '../../log.js';
import type { Family } from '../../types.js';
import { type FamilyTools, type MountedFamily, mountFamily } from './families.js';

/** What the task-list feature is made of. */
export interface TasksFeatureOptions {
  family: Family;
  /** The shared or durable list (its task store as the conversation hands it on); none: the conversation's own. */
  list: ListHandle | undefined;
  limits: Partial<TaskListLimits>;
  /** Called after every change of the list, made here or elsewhere. */
  changed: () => void;
  tools: FamilyTools;
  log: Logger;
}

/** The task-list feature: see the module's comment. */
export class TasksFeature implements Feature {
  readonly name = 'tasks';
  private readonly mounted: MountedFamily;

  constructor(options: TasksFeatureOptions) {
    this.mounted = mountFamily(
      options.family,
      options.list,
      options.limits,
      options.changed,
      options.log,
      options.tools,
    );
  }

  /** The list as raider://tasks shows it (with a store, caught up with changes made elsewhere). */
  readonly listState = (): Promise<unknown> => this.mounted.listState();

  /** Changes a task's status through the family's own tool; undefined for todo_write, which is replaced whole. */
  get setStatus(): MountedFamily['setStatus'] {
    return this.mounted.setStatus;
  }

  /**
   * Registers the family's tools on `server`, through its call pipeline: each sends progress while
   * it runs long (a lock another process holds, a slow hook) and takes Claude Code's names.
   */
  register(server: FeatureServer): void {
    const registrar: ToolRegistrar = {
      registerTool: (name, config, handler) =>
        server.tools.register({
          name,
          config,
          handler: (args, call) => handler(args, call.request),
          progress: true,
          claudeNames: true,
        }),
    };
    this.mounted.register(registrar);
  }

  /** Stops watching the list for changes made elsewhere. */
  close(): void {
    this.mounted.stop();
  }
}
