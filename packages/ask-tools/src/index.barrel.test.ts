// The public surface of `.` is intentional: every name it exports is one the README documents.
// A new export fails this test until it is added here on purpose (and to the README).
import { describeExports } from '@raider/kit/testing';
import * as api from './index.js';

describeExports(api, [
  'AskError',
  'AskTools',
  'DEFAULT_TIMEOUT_MS',
  'UNAVAILABLE',
  'elicitationAnswerer',
  'registerAskUserQuestion',
]);
