from report import SUFFIX

FULL_SUFFIX = SUFFIX + "_final"
