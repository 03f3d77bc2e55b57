#!/bin/sh
# The qa profile's e2e service: forwards localhost to the composed services, then runs the
# Playwright suite against them (e2e/playwright.compose.config.ts). Extra arguments go to
# Playwright, e.g. `docker compose --profile qa run --rm e2e specs/a11y.spec.ts`.
set -eu
node /repo/docker/e2e/forward-ports.mjs &
cd /repo/e2e
exec npx playwright test -c playwright.compose.config.ts "$@"
