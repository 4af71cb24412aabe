import os

APP_NAME = "orders"
DATABASE_URL = os.environ.get("DATABASE_URL", "sqlite:///./local.db")
