"""Referee tokens: random secrets handed out once, stored only as SHA-256."""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.models import AuditEntry, Token

BOOTSTRAP_NAME = "BOARDREADER_TOKEN"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def find_token(db: Session, presented: str) -> Token | None:
    """The stored token whose hash matches `presented`, if any."""
    return db.scalar(select(Token).where(Token.sha256 == hash_token(presented)))


def ensure_bootstrap_token(db: Session, token: str) -> Token:
    """Store the token from the environment (once; restarts find it again)."""
    existing = find_token(db, token)
    if existing is not None:
        return existing
    row = Token(name=BOOTSTRAP_NAME, sha256=hash_token(token))
    db.add(row)
    db.commit()
    return row


def issue_token(db: Session, name: str, *, issued_by: Token) -> tuple[Token, str]:
    """A new referee token: the stored row and the secret, which is shown this once only."""
    secret = secrets.token_urlsafe(32)
    row = Token(name=name, sha256=hash_token(secret), created_by=issued_by.id)
    db.add(row)
    db.flush()
    db.add(AuditEntry(token_id=issued_by.id, action="token.issue", detail={"token_id": row.id, "name": name}))
    db.commit()
    return row, secret
