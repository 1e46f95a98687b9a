/**
 * Every client test file: Testing Library's waitFor/findBy give up after 5 s, not 1 s. The suites run
 * beside the server's on a shared machine, where a render that takes 50 ms alone can take over a second;
 * a check that passes waits no longer than it needs to.
 */
import { configure } from '@testing-library/react';
import { beforeAll } from 'vitest';
import { resetClockForTests } from '../lib/live/clock-store';

configure({ asyncUtilTimeout: 5_000 });

// Files without mocks share their worker's modules (vitest.config.ts): each starts with the shared
// clock as a fresh tab has it, neither frozen by another file (setServerNow) nor corrected by the
// time another file's fetch stub answered.
beforeAll(() => {
  resetClockForTests();
});
