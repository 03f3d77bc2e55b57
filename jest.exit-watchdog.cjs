// Jest global teardown: fail the run when something a test left open keeps Jest alive.
// On these 2-core machines Jest runs test files in band, in its own process, so one client,
// socket or timer a failed test never closed would otherwise hold the run open until CI's own
// limit kills it, with no word of which suite leaked. The timer is unref'd: it fires only if
// another handle is still keeping the process alive after the run has finished.
const GRACE_MS = 15_000;

module.exports = async function exitWatchdog() {
  const timer = setTimeout(() => {
    process.stderr.write(
      `\njest: still running ${GRACE_MS / 1000} s after the last test finished: a test left a ` +
        `server, client, socket or timer open (run with --detectOpenHandles to see which). ` +
        `Exiting with failure.\n`,
    );
    process.exit(1);
  }, GRACE_MS);
  timer.unref();
};
