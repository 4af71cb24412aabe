#!/bin/sh
set -e

prepare() {
  python manage.py migrate --noinput
  echo "Migrations complete"
  python manage.py collectstatic --noinput
}

# Release gate: prepare once per image (FLY_IMAGE_REF, else FLY_MACHINE_VERSION).
# The gate never imports Django, so a machine that skips it serves in seconds.
# It exits 0 only when it is sure the release is prepared; any failure of the
# gate itself (no Redis, no image ref, timeout, a crash) falls to "prepare".
if python /app/deploy/release_gate.py already-prepared; then
  :
else
  prepare
  python /app/deploy/release_gate.py done || true
fi

exec granian --interface wsgi --host 0.0.0.0 --port 8000 \
  --workers 2 --workers-max-rss 800 \
  config.wsgi:application
