# sagat: a record's wall time as ISO-8601 UTC, for the readers of a log (log/read.py, log/matchrecords.py):
# loaded with them, never on the clock's loop (no time module: the same text on every runtime).

_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def iso_utc(sec, ms=0):
    """ISO-8601 UTC for Unix seconds (no time module: the same on every runtime)."""
    days = sec // 86400
    rest = sec % 86400
    year = 1970
    while True:
        n = 366 if (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)) else 365
        if days < n:
            break
        days -= n
        year += 1
    month = 0
    while True:
        n = _DAYS[month] + (1 if month == 1 and n_leap(year) else 0)
        if days < n:
            break
        days -= n
        month += 1
    return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (
        year,
        month + 1,
        days + 1,
        rest // 3600,
        rest // 60 % 60,
        rest % 60,
        ms,
    )


def n_leap(year):
    """Whether `year` has a 29 February."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
