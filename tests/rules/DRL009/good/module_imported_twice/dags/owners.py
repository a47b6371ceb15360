# Imports teams, which imports this module back while it is paused at that import; teams asks
# for nothing, and the DAG file's own `import teams` finds teams done: it does not run again.
from teams import TEAM

OWNER = "owner-" + TEAM
