"""Release gate: run release work once per image, not once per machine boot.

Exit 0 = the release is already prepared: start the server straight away.
Any other exit (including a crash of this script) = prepare the release
(migrate + collectstatic) on this machine. Every uncertain path prepares:
a wrong "skip" serves an unmigrated database, a wrong "prepare" only repeats
an idempotent no-op migration.
"""

import os
import sys
import time

WAIT_SECONDS = 60
LOCK_TTL = 120


def release_key():
    ref = os.environ.get("FLY_IMAGE_REF") or os.environ.get("FLY_MACHINE_VERSION")
    return f"release:{ref}" if ref else None


def connect():
    try:
        import redis

        client = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=2)
        client.ping()
        return client
    except Exception:
        return None


PREPARED, PREPARE = 0, 1


def already_prepared():
    key, client = release_key(), connect()
    if key is None or client is None:
        return PREPARE  # cannot tell
    if client.get(key + ":done"):
        print("release gate: this release is already prepared, starting straight away")
        return PREPARED
    me = os.environ.get("FLY_MACHINE_ID", "local")
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if client.set(key + ":lock", me, nx=True, ex=LOCK_TTL):
            return PREPARE  # we own the release
        # Read the lock back: a False from SET NX can also mean Redis failed.
        if client.get(key + ":lock") is None:
            continue  # owner died: take over
        if client.get(key + ":done"):
            print("release gate: this release is already prepared, starting straight away")
            return PREPARED
        time.sleep(1)
    return PREPARE  # waited too long: prepare anyway


def done():
    key, client = release_key(), connect()
    if key and client:
        client.set(key + ":done", "1", ex=7 * 24 * 3600)
    return 0


if __name__ == "__main__":
    sys.exit(done() if sys.argv[1:] == ["done"] else already_prepared())
