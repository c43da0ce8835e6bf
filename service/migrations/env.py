"""Alembic environment: migrates the connection the service hands over, or `-x db_url=...` from the CLI."""

from alembic import context
from sqlalchemy import create_engine

from service.models import Base


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("db_url", "sqlite:///boardreader.db")
    with create_engine(url).begin() as own_connection:
        context.configure(connection=own_connection, target_metadata=Base.metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()
