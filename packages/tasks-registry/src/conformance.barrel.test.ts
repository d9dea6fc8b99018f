// The `./conformance` entry's public surface is intentional, as the main entry's: a new export, or
// a new type in its built conformance.d.ts, fails this test until it is added here on purpose (and
// to the README). The suite's groups and suiteTools stay internal.
import { describeDeclaredExports, describeExports } from '@raider/kit/testing';
import * as api from './conformance.js';

describeExports(api, ['describeMessageStoreConformance', 'describeQuestionStoreConformance']);

describeDeclaredExports(new URL('../dist/conformance.d.ts', import.meta.url), [
  'function describeMessageStoreConformance',
  'function describeQuestionStoreConformance',
  'interface ConformanceRunner',
  'interface MessageDelivery',
  'interface MessageLimits',
  'interface MessageStore',
  'interface MessageStoreConformanceOptions',
  'interface MessageStoreSetup',
  'interface OpenedMessageStore',
  'interface OpenedQuestionStore',
  'interface OutgoingQuestion',
  'interface QuestionLimits',
  'interface QuestionStore',
  'interface QuestionStoreConformanceOptions',
  'interface QuestionStoreSetup',
  'interface StoredMessage',
  'interface StoredQuestion',
  'interface TakeOptions',
  'type OpenMessageStore',
  'type OpenQuestionStore',
  'type OutgoingMessage',
  'type QuestionOutcome',
  'type SettleResult',
  'type StoredQuestionState',
]);
