import aiosqlite
from fastapi import FastAPI

app = FastAPI()
DB = "/data/app.db"


@app.get("/health")
async def healthz():
    return {"status": "ok"}


@app.get("/items/{item_id}")
async def item(item_id: int):
    # SQLite in WAL mode: readers never wait for the writer. The freeze was
    # never here; it was the queue in front of the workers.
    async with aiosqlite.connect(DB) as db:
        async with db.execute("SELECT id, name FROM items WHERE id = ?", (item_id,)) as cur:
            row = await cur.fetchone()
    return {"id": row[0], "name": row[1]} if row else {"detail": "not found"}
