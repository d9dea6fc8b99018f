import { packageTests } from '../../vitest.base.js';

// Unit tests in src/ (test:unit). These src/ files start processes (Claude Code's writer, message
// workers, mount, mkfifo), so they run as end-to-end tests (test:e2e) until they move to test/.
export default packageTests(
  import.meta.url,
  {},
  {
    fromSrc: [
      'src/**/task-folder.beside-claude-code.test.ts',
      'src/**/message-folder.processes.test.ts',
      'src/**/task-folder.faults.test.ts',
      'src/**/message-folder.faults.test.ts',
      'src/**/list-names.test.ts',
    ],
  },
);
