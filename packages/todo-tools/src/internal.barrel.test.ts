// The `./internal` entry exports exactly what raider-server needs of the package's insides, and no
// more (docs/decisions/0011-internal-entries.md): a name added to internal.ts fails this test until it
// is added here on purpose.
import { describeDeclaredExports, describeExports } from '@raider/kit/testing';
import * as internal from './internal.js';

describeExports(internal, ['isImmutableTodoTasks']);
describeDeclaredExports(new URL('../dist/internal.d.ts', import.meta.url), [
  'function isImmutableTodoTasks',
  'interface TodoTask',
]);
