from common.a import *
VALUE = 1
