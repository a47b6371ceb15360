# Imported by nothing, and mentions neither of the words Airflow's processor looks for: skipped.
def half_written(:
