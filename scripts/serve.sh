#!/usr/bin/env bash
# Serves dist/ through nginx with the hosted configuration (deploy/clusterplan.nginx) at
# http://127.0.0.1:${PORT:-8080}/, building the release first when dist/ is missing. nginx runs
# in the foreground with a prefix of its own (target/nginx); Ctrl-C stops it.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
need_server
PORT="${PORT:-8080}"
DIST="${DIST:-$ROOT/dist}"
[ -f "$DIST/index.html" ] || trunk build --release
PREFIX="$ROOT/target/nginx"
mkdir -p "$PREFIX/temp"
# nginx's workers never run as root. Started by root, they run as the owner of dist/ where that
# is not root; where it is, as nobody, over a copy of dist/ nobody can read (a checkout may sit
# where only its owner can, as a home directory does), removed when nginx stops.
USER_LINE=""
SERVED=""
if [ "$(id -u)" -eq 0 ]; then
  if [ "$(stat -c %u "$DIST")" -ne 0 ]; then
    USER_LINE="user $(stat -c %U "$DIST") $(stat -c %G "$DIST");"
  else
    SERVED="$(mktemp -d /tmp/clusterplan-served.XXXXXX)"
    cp -R "$DIST/." "$SERVED/"
    chmod -R a+rX "$SERVED"
    DIST="$SERVED"
    USER_LINE="user nobody $(id -gn nobody);"
  fi
fi
# The site as deployed, on a loopback port and this checkout's dist/.
sed -e "s|^    listen 8080;|    listen 127.0.0.1:$PORT;|" \
    -e "s|^    root /srv/clusterplan/dist;|    root $DIST;|" \
    -e "s|/srv/clusterplan/dist/csp|$DIST/csp|" \
    "$ROOT/deploy/clusterplan.nginx" > "$PREFIX/site.conf"
cat > "$PREFIX/nginx.conf" <<CONF
load_module $BROTLI_MODULE;
$USER_LINE
daemon off;
worker_processes 1;
pid $PREFIX/nginx.pid;
error_log stderr warn;
events { worker_connections 256; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path $PREFIX/temp/body;
    proxy_temp_path $PREFIX/temp/proxy;
    fastcgi_temp_path $PREFIX/temp/fastcgi;
    uwsgi_temp_path $PREFIX/temp/uwsgi;
    scgi_temp_path $PREFIX/temp/scgi;
    include $PREFIX/site.conf;
}
CONF
echo "serving $DIST at http://127.0.0.1:$PORT/" >&2
if [ -z "$SERVED" ]; then
  exec nginx -p "$PREFIX" -c "$PREFIX/nginx.conf"
fi
# With a copy to remove, nginx runs beside this shell, which passes on the signal to stop.
nginx -p "$PREFIX" -c "$PREFIX/nginx.conf" &
NGINX=$!
stop() { kill -TERM "$NGINX" 2>/dev/null; wait "$NGINX" 2>/dev/null; rm -rf "$SERVED"; exit 0; }
trap stop TERM INT
wait "$NGINX"
rm -rf "$SERVED"
