// Setup of every jsdom project (the shell, the remotes, the kit): how long a test may wait.
//
// Testing Library's findBy* and waitFor wait for mechanisms (React drawing a page, a mocked
// request's promise settling), but their default limit is 1 s of wall-clock time, and on a busy
// 2-core machine drawing twenty post cards in jsdom alone takes longer, so correct tests failed
// there. The longer limit is a safety net that only a broken test reaches. Waits on time itself
// (a retry, a debounce, an expiry) use Jest's fake timers instead, never this limit.
//
// A test's own limit (Jest's testTimeout, 2 minutes in jest.base.cjs) is a hang detector, and a
// component test cannot hang on I/O: its API is a mock. The heaviest ones (the feed's pages of
// 20 to 60 post cards) cost 3 to 4 s of CPU each, which 2 busy loops and other jobs on a 2-core
// machine stretched past 30 s (measured: 34 s), so a jsdom test gets 60 s.
/* global jest */
const { configure } = require('@testing-library/react');

configure({ asyncUtilTimeout: 10_000 });
jest.setTimeout(60_000);
