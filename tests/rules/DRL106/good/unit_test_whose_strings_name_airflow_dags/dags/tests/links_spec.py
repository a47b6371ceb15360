from unittest import TestCase

from storage.links import save_link


class TestSaveLink(TestCase):
    def test_trailing_slash(self) -> None:
        url = "https://github.com/example/airflow-dags/pull/7/"
        self.assertEqual(save_link(url), url[:-1])
