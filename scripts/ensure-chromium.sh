#!/usr/bin/env bash
# The e2e suite drives Debian's Chromium (Playwright never downloads a browser here).
# Installs it when neither CHROMIUM_PATH nor /usr/bin/chromium is there (needs root, as on CI).
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "${CHROMIUM_PATH}" ]; then exit 0; fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "Installing Debian's chromium for the e2e suite..."
if [ "$(id -u)" -ne 0 ]; then
  echo "chromium is missing and this is not root: run 'sudo apt-get install -y chromium' once" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
