"""Initial schema: tokens, matches, events, audit, tables, frames.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("tokens.id"), nullable=True),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("line", sa.JSON, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("tokens.id"), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=False, index=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("body", sa.JSON, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("tokens.id"), nullable=False),
        sa.UniqueConstraint("match_id", "seq", name="uq_events_match_seq"),
    )
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", TIME, nullable=False),
        sa.Column("token_id", sa.Integer, sa.ForeignKey("tokens.id"), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=True, index=True),
        sa.Column("detail", sa.JSON, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("source", sa.String(500), nullable=True),
        sa.Column("profile_path", sa.String(500), nullable=True),
        sa.Column("created_at", TIME, nullable=False),
    )
    op.create_table(
        "frames",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False, index=True),
        sa.Column("received_at", TIME, nullable=False),
        sa.Column("width_px", sa.Integer, nullable=False),
        sa.Column("height_px", sa.Integer, nullable=False),
        sa.Column("jpeg", sa.LargeBinary, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
    )


def downgrade() -> None:
    for table in ("frames", "tables", "audit", "events", "matches", "tokens"):
        op.drop_table(table)
