from common.suffixes import FULL_SUFFIX

PREFIX = "team_"
