// The public surface is intentional: every name the package exports is one its README documents.
// A new export fails this test until it is added here on purpose (and to the README).
import { describeExports } from '@raider/kit/testing';
import * as api from './index.js';

describeExports(api, ['DatabaseError', 'ListIdError', 'openPostgresLists']);
