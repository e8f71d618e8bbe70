"""How a German page writes a time: 26. Nov., 05:00 (``N``: the month as German abbreviates it)."""

DATE_FORMAT = "j. N Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j. N Y, H:i:s"
SHORT_DATETIME_FORMAT = "j. N, H:i"
MONTH_DAY_FORMAT = "j. N"
THOUSAND_SEPARATOR = "."
DECIMAL_SEPARATOR = ","
NUMBER_GROUPING = 3  # a page's totals: 1.075 (``{{ n|number }}``, templatetags/cards.py)
