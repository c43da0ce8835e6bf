"""The Alembic migrations build exactly the schema of service/models.py, and rerun harmlessly."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from service.config import Settings
from service.db import make_engine, migrate
from service.models import Base


def test_migrations_match_the_models_and_are_idempotent(tmp_path):
    engine = make_engine(Settings(db_url=f"sqlite:///{tmp_path / 'schema.db'}"))
    migrate(engine)
    migrate(engine)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        assert differences == []
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    assert set(inspect(engine).get_table_names()) >= {"matches", "events", "tokens", "audit", "tables", "frames"}
    engine.dispose()
