import { validatePromptArguments } from 'mcp-prompt-kit';

validatePromptArguments({ focus: 'naming' }, [{ name: 'code', required: true }, { name: 'focus' }]);
// { ok: false, error: { code: -32602, message: 'Missing required prompt arguments',
//   data: { missing_arguments: ['code'], provided_count: 1, required_count: 1 } } }

// What docs/arguments.md's comment promises (run by test/readme.test.ts):
import assert from 'node:assert/strict';

assert.deepEqual(validatePromptArguments({ focus: 'naming' }, [{ name: 'code', required: true }, { name: 'focus' }]), {
  ok: false,
  error: {
    code: -32602,
    message: 'Missing required prompt arguments',
    data: { missing_arguments: ['code'], provided_count: 1, required_count: 1 },
  },
});
