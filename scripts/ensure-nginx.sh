#!/usr/bin/env bash
# The plain-machine checks (npm run test:ops: scripts/ops/*.after-build.test.ts, ops:check) run
# Debian's nginx. Installs it when it is missing (needs root, as on CI); the install starts no
# nginx service (the checks start their own, on ports of their own).
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi
echo "Installing Debian's nginx for the plain-machine checks..."
if [ "$(id -u)" -ne 0 ]; then
  echo "nginx is missing and this is not root: run 'sudo apt-get install -y nginx' once" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# invoke-rc.d and deb-systemd-invoke ask policy-rc.d whether to start the service: 101 is no.
policy=/usr/sbin/policy-rc.d
added=''
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"
  chmod 755 "$policy"
  added=1
fi
status=0
{ apt-get update -qq && apt-get install -y -qq --no-install-recommends nginx >/dev/null; } || status=$?
if [ -n "$added" ]; then rm -f "$policy"; fi
exit "$status"
