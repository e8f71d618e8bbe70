"""How a German page writes a time: 26. Nov., 05:00 (``N``: the month as German abbreviates it)."""

DATE_FORMAT = "j. N Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j. N Y, H:i:s"
SHORT_DATETIME_FORMAT = "j. N, H:i"
MONTH_DAY_FORMAT = "j. N"
