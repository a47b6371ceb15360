"""Nightly exports: the DAG is built by the team's factory, from a package outside the
repository that Airflow's DAG processor imports when it parses this file."""

from team_tooling.dags import build_dag

dag = build_dag("nightly_exports", schedule="@daily")
