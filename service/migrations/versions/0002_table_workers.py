"""Tables get what their vision worker needs: the match, whether it runs, playback pace, file position.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Batch mode: SQLite adds a foreign key only by rebuilding the table.
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("match_id", sa.Integer, nullable=True))
        batch.add_column(sa.Column("live", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("realtime", sa.Boolean, nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("position_s", sa.Float, nullable=False, server_default="0"))
        batch.create_foreign_key("fk_tables_match_id", "matches", ["match_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_constraint("fk_tables_match_id", type_="foreignkey")
        for column in ("position_s", "realtime", "live", "match_id"):
            batch.drop_column(column)
