"""Knowledge about Airflow and Python packaging, shipped as data: providers, names."""
