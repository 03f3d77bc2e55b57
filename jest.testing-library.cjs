// Setup of every jsdom project: how long Testing Library's findBy* and waitFor wait.
// Their waits are for mechanisms (React drawing a page, a mocked request's promise settling),
// but the default limit of 1 s is wall-clock time, and on a busy 2-core machine drawing twenty
// post cards in jsdom alone can take longer, so a correct test failed there. The longer limit
// is a safety net only a broken test reaches; it stays well below Jest's testTimeout so that a
// test waiting for something that never comes fails with Testing Library's message (and the DOM)
// rather than a bare timeout. Waits on time itself use Jest's fake timers, never this limit.
const { configure } = require('@testing-library/react');

configure({ asyncUtilTimeout: 10_000 });
