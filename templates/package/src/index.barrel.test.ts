// The public surface is intentional: every name the package exports, and every type, is one its
// README documents. A new export fails this test until it is added here on purpose (and to the
// README); the types are read from the built declaration file, as a user's compiler reads them.
import { describeDeclaredExports, describeExports } from '@raider/kit/testing';
import * as api from './index.js';

describeExports(api, ['hello']);
describeDeclaredExports(new URL('../dist/index.d.ts', import.meta.url), ['function hello']);
