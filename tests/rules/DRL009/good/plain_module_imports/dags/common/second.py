import common.first

NAME = "build"
