# Importing settings fails (its import of owners comes back for OWNER, bound below).
import owners

OWNER = "team"
