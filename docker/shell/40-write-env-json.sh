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

# OVERRIDE_ORIGINS (optional, comma-separated): origins a feature team may load a preview build
# of a remote from (docs/feature-teams.md); the Content-Security-Policy allows them too
# (docker/nginx/40-security-headers.sh). Unset: every override is refused.
override_origins=''
for origin in $(printf '%s' "${OVERRIDE_ORIGINS:-}" | tr ',' ' '); do
    case "$origin" in
        *'"'* | *'\'* | *"'"* | *';'*)
            echo "40-write-env-json: OVERRIDE_ORIGINS must list plain origins" >&2
            exit 1
            ;;
        http://?* | https://?*) ;;
        *)
            echo "40-write-env-json: OVERRIDE_ORIGINS: $origin is not an http(s) origin" >&2
            exit 1
            ;;
    esac
    override_origins="${override_origins:+$override_origins, }\"$origin\""
done

cat > "$target" <<JSON
{
  "apiUrl": "${API_URL}",
  "remotes": {
    "mf_feed": "${MF_FEED_URL}",
    "mf_profile": "${MF_PROFILE_URL}",
    "mf_notifications": "${MF_NOTIFICATIONS_URL}",
    "mf_admin": "${MF_ADMIN_URL}"
  },
  "overrideOrigins": [${override_origins}]
}
JSON
echo "40-write-env-json: env.json points at ${API_URL}"
