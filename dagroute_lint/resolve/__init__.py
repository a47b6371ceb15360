"""Stage 4, resolve: fold values, apply Airflow's precedence, place tasks, hold the repository."""
