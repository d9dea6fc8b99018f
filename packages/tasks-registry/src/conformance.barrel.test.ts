// The `./conformance` entry's public surface is intentional, as the main entry's: a new export
// fails this test until it is added here on purpose (and to the README). The suite's groups and
// suiteTools stay internal.
import { describeExports } from '@raider/kit/testing';
import * as api from './conformance.js';

describeExports(api, ['describeMessageStoreConformance']);
