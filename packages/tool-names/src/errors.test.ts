// Errors a caller can tell apart: a stable code, and isInstance across copies of the package.
import { describeCodedError } from '@raider/kit/testing';
import { raiderTools, ToolNamesArgumentError } from './index.js';

describeCodedError(ToolNamesArgumentError, {
  packageName: '@raider/tool-names',
  code: 'INVALID_ARGUMENT',
  throwIt: () => raiderTools(undefined as unknown as string[]),
});
