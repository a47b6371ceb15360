# Imported by nothing and naming neither of the two magic words: the processor skips it.
def half_written(:
