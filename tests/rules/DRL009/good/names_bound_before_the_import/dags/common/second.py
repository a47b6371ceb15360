from common.first import BASE

NAME = BASE + "_daily"
