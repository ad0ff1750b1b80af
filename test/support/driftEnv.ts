/* eslint-disable @n8n/community-nodes/no-restricted-globals */
// Setup of jest's `drift` project (jest.config.js): every sandbox a test starts drifts, unless
// the test says otherwise (test/support/sandbox.ts).
process.env.CT_SANDBOX_DRIFT = '1';
