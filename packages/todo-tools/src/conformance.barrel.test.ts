// The `./conformance` entry's public surface is intentional, as the SDK entries' are: a new export,
// or a new type in its built conformance.d.ts, fails this test until it is added here on purpose
// (and to the README). The suite's groups stay internal.
import { describeDeclaredExports, describeExports } from '@raider/kit/testing';
import * as api from './conformance.js';

describeExports(api, ['describeTaskStoreConformance']);

describeDeclaredExports(new URL('../dist/conformance.d.ts', import.meta.url), [
  'function describeTaskStoreConformance',
  'interface ConformanceRunner',
  'interface TaskStore',
  'type OpenTestList',
]);
