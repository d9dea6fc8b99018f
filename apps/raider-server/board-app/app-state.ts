/**
 * What the board app draws and sends: the answer of the app-only tool `board_state`, shared by the
 * server (src/board/board-app.ts) and the app (board-app/main.ts, a separate Vite build that imports
 * these types only).
 */
import type { BoardTask } from '../src/board/board-state.js';

export type { BoardTask };

/** An open question the app can answer. */
export interface AppQuestion {
  id: string;
  question: string;
  options: string[];
}

/** What `board_state` answers. */
export interface AppState {
  /** Goes up with every change; `board_state { after }` waits until it passes `after`. */
  version: number;
  family: string;
  /** Whether the app can change a task's status (not for todo_write, which the model replaces whole). */
  editable: boolean;
  tasks: BoardTask[];
  questions: AppQuestion[];
}
