// The public surface is intentional: every name the package exports, and every type, is one its
// README documents. A new export fails this test until it is added here on purpose (and to the
// README); the types are read from the built declaration file, as a user's compiler reads them.
import { describeDeclaredExports, describeExports } from '@raider/kit/testing';
import * as server from './index.js';

describeExports(server, [
  'OptionsError',
  'createConversation',
  'createLogger',
  'readOptions',
  'startHttp',
  'startStdio',
]);

describeDeclaredExports(new URL('../dist/index.d.ts', import.meta.url), [
  'class OptionsError',
  'function createConversation',
  'function createLogger',
  'function readOptions',
  'function startHttp',
  'function startStdio',
  'interface Conversation',
  'interface ConversationOptions',
  'interface HttpServer',
  'interface Logger',
  'interface ServerOptions',
  'interface ServerRuntime',
  'interface StdioEnd',
  'interface StdioServer',
  'type Era',
  'type Family',
  'type LogLevel',
  'type Names',
]);
