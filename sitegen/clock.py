"""The build's notion of now: SOURCE_DATE_EPOCH when it is set (reproducible builds), else the
clock, in UTC. Inputs may not be dated after it: an amendment, a cohort or a call dated in the
future is a mistake or a back-dating trick, never a record."""

from __future__ import annotations

import datetime as dt
import os
import re

from sitegen.errors import BuildError, short_repr

# The last second datetime can represent (9999-12-31T23:59:59Z): a later one is a mistake, not a date.
_LAST_EPOCH = int(dt.datetime.max.replace(tzinfo=dt.timezone.utc).timestamp())


def source_date_epoch(value: str) -> dt.datetime:
    """SOURCE_DATE_EPOCH as the reproducible-builds specification defines it: ASCII digits only,
    seconds since 1970-01-01T00:00:00Z."""
    # at most as many digits as the last second has, so that int() never meets a huge number
    if not re.fullmatch(rf"[0-9]{{1,{len(str(_LAST_EPOCH))}}}", value) or int(value) > _LAST_EPOCH:
        raise BuildError(f"SOURCE_DATE_EPOCH must be a whole number of seconds since 1970-01-01; found {short_repr(value)}")
    return dt.datetime.fromtimestamp(int(value), dt.timezone.utc)


def now() -> dt.datetime:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return source_date_epoch(epoch) if epoch else dt.datetime.now(dt.timezone.utc)


def today() -> str:
    """The build's date, YYYY-MM-DD."""
    return now().date().isoformat()


def now_iso() -> str:
    """The build's time, YYYY-MM-DDTHH:MM:SSZ (the form recorded times take)."""
    return now().strftime("%Y-%m-%dT%H:%M:%SZ")
