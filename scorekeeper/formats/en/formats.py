"""How an English page writes a time (``{{ when|date:"SHORT_DATETIME_FORMAT" }}``): 26 Nov, 05:00."""

DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i:s"  # the change history, to the second
SHORT_DATETIME_FORMAT = "j M, H:i"
MONTH_DAY_FORMAT = "j M"
NUMBER_GROUPING = 0  # a page's totals as they always were: 1075 (``{{ n|number }}``, templatetags/cards.py)
