#!/bin/sh
# Runs from the nginx image's /docker-entrypoint.d/ when a front-end container (the shell or a
# remote) starts, after the templates are rendered: writes the headers every response carries,
# computed from the same variables as the shell's env.json, into nginx snippets the server
# templates include (docker/nginx/*.conf.template):
#   security-headers.conf  Content-Security-Policy, X-Frame-Options, nosniff, Referrer-Policy
#   cors.conf              a remote's CORS: only the shell's origin (SHELL_URL) may read its files
#   landing-preload.conf   the shell's home page: Link preload of the feed remote (MF_FEED_URL)
# The policy is the one scripts/serve/security-headers.ts computes for `npm start` and the e2e
# suite; scripts/compose/compose.test.ts runs this script and checks that both agree.
#   API_URL                 the API as the browser sees it (required)
#   MF_FEED_URL ...         each remote's manifest URL (the shell: scripts come from there)
#   OVERRIDE_ORIGINS        origins of feature teams' preview builds (the shell, optional)
#   SHELL_URL               the shell's URL (required in a remote: CAMPUS_APP=remote)
set -eu
dir="${SECURITY_HEADERS_DIR:-/etc/nginx/runtime}"

# A value ends up inside a quoted nginx string: nothing that could close it or start a variable.
check() {
    case "$2" in
        *'"'* | *"'"* | *'\'* | *'$'* | *';'* | *' '* | *'	'*)
            echo "40-security-headers: $1 must be a plain URL, got \"$2\"" >&2
            exit 1
            ;;
    esac
}

# The origin (scheme://host[:port]) of an absolute URL; nothing for a relative one, which the
# page loads from its own origin ('self').
origin_of() {
    case "$1" in
        http://* | https://*) printf '%s\n' "$1" | sed -E 's#^(https?://[^/?#]*).*$#\1#' ;;
    esac
}

# Appends origins to a space-separated list, each once, in order.
add_origins() {
    list="$1"
    shift
    for origin in "$@"; do
        case " $list " in
            *" $origin "*) ;;
            *) list="${list:+$list }$origin" ;;
        esac
    done
    printf '%s' "$list"
}

api_url="${API_URL:-}"
if [ -z "$api_url" ]; then
    echo "40-security-headers: API_URL must be set" >&2
    exit 1
fi
check API_URL "$api_url"
remote_origins=''
for name in MF_FEED_URL MF_PROFILE_URL MF_NOTIFICATIONS_URL MF_ADMIN_URL; do
    eval "value=\${$name:-}"
    [ -n "$value" ] || continue
    check "$name" "$value"
    remote_origins="$(add_origins "$remote_origins" $(origin_of "$value"))"
done
for value in $(printf '%s' "${OVERRIDE_ORIGINS:-}" | tr ',' ' '); do
    check OVERRIDE_ORIGINS "$value"
    remote_origins="$(add_origins "$remote_origins" $(origin_of "$value"))"
done
api_origin="$(origin_of "$api_url")"
connect_origins="$(add_origins "$api_origin" $remote_origins)"

policy="default-src 'self'"
policy="$policy; script-src 'self'${remote_origins:+ $remote_origins}"
# styled-components inserts its rules into <style> elements at run time (no nonce on static files).
policy="$policy; style-src 'self' 'unsafe-inline'"
policy="$policy; img-src 'self' data: blob:${api_origin:+ $api_origin}"
policy="$policy; connect-src 'self'${connect_origins:+ $connect_origins}"
policy="$policy; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

mkdir -p "$dir"
cat > "$dir/security-headers.conf" <<NGINX
add_header Content-Security-Policy "$policy" always;
add_header X-Frame-Options "DENY" always;
add_header X-Content-Type-Options "nosniff" always;
add_header Referrer-Policy "strict-origin-when-cross-origin" always;
NGINX

# The shell's home page preloads the feed remote's manifest and remoteEntry.js (a Link header:
# the browser fetches them with the shell's scripts, before the shell has read env.json).
: > "$dir/landing-preload.conf"
feed_manifest="${MF_FEED_URL:-}"
if [ "${CAMPUS_APP:-}" != remote ] && [ -n "$feed_manifest" ]; then
    feed_entry="${feed_manifest%/*}/remoteEntry.js"
    cat > "$dir/landing-preload.conf" <<NGINX
add_header Link "<$feed_manifest>; rel=preload; as=fetch; crossorigin=anonymous, <$feed_entry>; rel=preload; as=script" always;
NGINX
fi

if [ "${CAMPUS_APP:-}" = remote ]; then
    shell_url="${SHELL_URL:-}"
    check SHELL_URL "$shell_url"
    shell_origin="$(origin_of "$shell_url")"
    if [ -z "$shell_origin" ]; then
        echo "40-security-headers: SHELL_URL must be the shell's absolute URL (CORS allows only it)" >&2
        exit 1
    fi
    cat > "$dir/cors.conf" <<NGINX
# Only the shell's pages may read this remote's files (the manifest is fetched cross-origin).
add_header Access-Control-Allow-Origin "$shell_origin" always;
add_header Access-Control-Allow-Methods "GET, HEAD, OPTIONS" always;
add_header Vary "Origin" always;
NGINX
fi
echo "40-security-headers: Content-Security-Policy: $policy"
