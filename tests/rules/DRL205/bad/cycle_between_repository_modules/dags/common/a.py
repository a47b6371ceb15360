from common.b import VALUE
import opensearchpy
