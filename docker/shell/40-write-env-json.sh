#!/bin/sh
# Runs from the nginx image's /docker-entrypoint.d/ when the shell's container starts: writes the
# shell's run-time configuration (/env.json) from the environment, so the same image can point at
# any API and any remote deployment without a rebuild.
set -eu
target="${ENV_JSON_PATH:-/usr/share/nginx/html/env.json}"

require() {
    eval "value=\${$1:-}"
    if [ -z "$value" ]; then
        echo "40-write-env-json: $1 must be set" >&2
        exit 1
    fi
    case "$value" in
        *'"'* | *'\'*) echo "40-write-env-json: $1 must not contain quotes or backslashes" >&2; exit 1 ;;
    esac
}

require API_URL
require MF_FEED_URL
require MF_PROFILE_URL
require MF_NOTIFICATIONS_URL
require MF_ADMIN_URL

cat > "$target" <<JSON
{
  "apiUrl": "${API_URL}",
  "remotes": {
    "mf_feed": "${MF_FEED_URL}",
    "mf_profile": "${MF_PROFILE_URL}",
    "mf_notifications": "${MF_NOTIFICATIONS_URL}",
    "mf_admin": "${MF_ADMIN_URL}"
  }
}
JSON
echo "40-write-env-json: env.json points at ${API_URL}"
