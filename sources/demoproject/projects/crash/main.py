from fastapi import FastAPI

# Fine on a laptop; in the image config/settings.py is missing (see .dockerignore).
from config import settings

app = FastAPI(title=settings.APP_NAME)


@app.get("/healthz")
async def healthz():
    return {"status": "ok"}


@app.get("/api/orders/")
async def orders():
    return []
