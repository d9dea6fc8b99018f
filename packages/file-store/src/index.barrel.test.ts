// The public surface is intentional: every name the package exports is one its README documents,
// and every declaration its built index.d.ts exports (read as a user's compiler reads it) is pinned
// here. A new export or type fails this test until it is added here on purpose (and to the README).
import { describeDeclaredExports, describeExports } from '@raider/kit/testing';
import * as api from './index.js';

describeExports(api, [
  'FOLDER_FILES',
  'ListFileError',
  'ListIdError',
  'claudeListId',
  'claudeTaskFolder',
  'listFolderName',
  'listFolderPath',
  'openList',
  'openTaskFolder',
]);

describeDeclaredExports(new URL('../dist/index.d.ts', import.meta.url), [
  'class ListFileError',
  'class ListIdError',
  'const FOLDER_FILES',
  'function claudeListId',
  'function claudeTaskFolder',
  'function listFolderName',
  'function listFolderPath',
  'function openList',
  'function openTaskFolder',
  'interface TaskFolder',
  'interface TaskFolderOptions',
]);
