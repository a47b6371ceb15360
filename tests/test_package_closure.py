"""What installing a third-party distribution brings: the shipped closure, and its caveat."""

from __future__ import annotations

from dagroute_lint.catalog.distributions import (
    ImportNeed,
    brought_by,
    follow,
    import_need,
    unknown_dependencies,
)
from dagroute_lint.deployment.inventory import Requirement, Runtime
from dagroute_lint.records import replace
from dagroute_lint.rules.open_facts import OpenFact, open_fact
from dagroute_lint.rules.parse_boundary import caveat_for, has_package


def runtime(*packages: str) -> Runtime:
    listed = tuple(Requirement(name, "", name) for name in packages)
    return Runtime(name="base", python=None, providers=(), packages=listed)


def test_flower_brings_what_its_wheel_requires() -> None:
    brought = brought_by({"flower"})
    assert {"humanize", "tornado", "prometheus-client", "celery", "pytz"} <= brought
    # a chain of two in the real table: flower -> celery -> kombu -> amqp
    assert {"kombu", "amqp", "vine"} <= brought
    assert "flower" not in brought  # nothing it needs requires it back
    assert "pandas" not in brought


def test_names_are_compared_canonically() -> None:
    assert brought_by({"Flower"}) == brought_by({"flower"})
    assert "humanize" in brought_by({"Psycopg2_Binary", "FLOWER"})


def test_a_chain_of_two_is_followed() -> None:
    table = {"a": ("b",), "b": ("c",), "c": ()}
    assert follow(table, {"a"}) == {"b", "c"}
    assert follow(table, {"b"}) == {"c"}
    assert follow(table, {"c"}) == frozenset()


def test_a_cycle_ends_and_brings_everything_on_it() -> None:
    table = {"a": ("b",), "b": ("c",), "c": ("a", "d")}
    assert follow(table, {"a"}) == {"a", "b", "c", "d"}
    assert follow(table, {"unknown"}) == frozenset()


def test_a_runtime_listing_flower_has_humanize() -> None:
    humanize = import_need("humanize")
    assert humanize is not None
    assert has_package(runtime("flower"), humanize)
    assert not has_package(runtime("pandas"), humanize)
    assert not has_package(runtime(), humanize)


def test_unknown_dependencies_are_named_and_known_ones_are_not() -> None:
    assert unknown_dependencies({"flower", "pandas"}) == ()
    assert unknown_dependencies({"flower", "totally-private-wheel"}) == ("totally-private-wheel",)
    assert unknown_dependencies({"apache-airflow", "requests"}) == ()  # Airflow's closure


def test_the_caveat_names_a_few_then_counts() -> None:
    assert caveat_for({"flower"}) == ""
    assert caveat_for({"in-house-lib"}) == (
        "; the dependencies of 'in-house-lib' are not known (it may come with them)"
    )
    assert caveat_for({"b-lib", "a-lib"}) == (
        "; the dependencies of 'a-lib' and 'b-lib' are not known (it may come with them)"
    )
    many = caveat_for({"a-lib", "b-lib", "c-lib", "d-lib", "e-lib"})
    assert many == (
        "; the dependencies of 'a-lib', 'b-lib', 'c-lib' and 2 more are not known "
        "(it may come with them)"
    )


def need(module: str) -> ImportNeed:
    found = import_need(module)
    assert found is not None
    return found


def test_a_listed_distribution_no_table_maps_provides_what_it_is_named_after() -> None:
    base = runtime("acme-airflow-provider", "google-cloud-bigquery")
    assert has_package(base, need("acme_airflow_provider"))
    assert has_package(base, need("acme_airflow_provider.operators"))
    assert has_package(base, need("google.cloud.bigquery"))


def test_a_name_no_table_knows_is_unproven_where_a_listed_distribution_may_bring_it() -> None:
    """Whether a third party's provider requires ``foo_bar_sdk`` is not known: the lists do not
    prove it missing (``None``, said by DRL902), unlike a known distribution's import, and
    unlike a list whose every entry's requirements are known."""
    third_party = runtime("apache-airflow-providers-foo-bar")
    assert has_package(third_party, need("foo_bar_sdk")) is None
    assert has_package(third_party, need("humanize")) is False  # humanize is humanize's
    assert has_package(runtime("pandas"), need("foo_bar_sdk")) is False
    assert has_package(runtime(), need("foo_bar_sdk")) is False


def test_an_unproven_module_is_a_fact_of_its_own_per_module() -> None:
    listed = runtime("apache-airflow-providers-foo-bar")
    one = open_fact(listed, "package", "foo_bar_sdk")
    assert one == OpenFact("package", "base", "foo_bar_sdk")
    assert one != open_fact(listed, "package", "other_sdk")
    # A runtime that does not list its providers leaves that open instead, whatever the module.
    unlisted = replace(listed, providers=None)
    assert open_fact(unlisted, "package", "foo_bar_sdk") == OpenFact("provider", "base")
