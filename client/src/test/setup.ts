/**
 * Every client test file: Testing Library's waitFor/findBy give up after 5 s, not 1 s. The suites run
 * beside the server's on a shared machine, where a render that takes 50 ms alone can take over a second;
 * a check that passes waits no longer than it needs to.
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5_000 });
