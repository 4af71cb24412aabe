#!/bin/sh
# Runs on every machine start.
set -e

echo "entrypoint: python manage.py migrate --noinput"
python manage.py migrate --noinput
echo "Migrations complete"

echo "entrypoint: python manage.py collectstatic --noinput &"
python manage.py collectstatic --noinput &

exec granian --interface wsgi --host 0.0.0.0 --port 8000 \
  --workers 2 --workers-max-rss 800 \
  config.wsgi:application
