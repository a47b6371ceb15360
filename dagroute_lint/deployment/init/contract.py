"""``--contract FILE``: the runtime contract record a team keeps beside its image, as a runtime.

The record is JSON: ``{"code_version", "runtime_version", "required_providers",
"artifact_contract", "credential_source"}``. ``required_providers`` are the providers the image is
built to hold, so they become the runtime's providers; the other fields are free-form labels,
reported and never checked.
"""

from __future__ import annotations

import json
from pathlib import Path

from dagroute_lint.deployment.init.facts import DeploymentFacts, Fact, RuntimeFact
from dagroute_lint.deployment.requirements import parse_requirement
from dagroute_lint.errors import ConfigError, read_user_file

LABELS = ("code_version", "runtime_version", "artifact_contract", "credential_source")
PROVIDERS = "required_providers"
KEYS = (*LABELS[:2], PROVIDERS, *LABELS[2:])


def contract_facts(path: Path, runtime: str) -> DeploymentFacts:
    """The runtime the contract describes, named ``runtime``."""
    text = read_user_file(path)
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise ConfigError(
            f"{path}:{error.lineno}:{error.colno}: invalid JSON: {error.msg}"
        ) from None
    if not isinstance(record, dict):
        raise ConfigError(f"{path}: expected a JSON object with the keys {', '.join(KEYS)}")
    unknown = sorted(set(record) - set(KEYS))
    if unknown:
        raise ConfigError(
            f"{path}: {unknown[0]}: unknown key in a runtime contract (keys: {', '.join(KEYS)})"
        )
    labels: list[tuple[str, Fact[str]]] = []
    for label in LABELS:
        if label in record:
            value = record[label]
            if not isinstance(value, str) or not value.strip():
                raise ConfigError(f"{path}: {label}: expected a non-empty string")
            labels.append((label, Fact(value, f"{path} {label}")))
    providers = None
    if PROVIDERS in record:
        items = record[PROVIDERS]
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            raise ConfigError(f'{path}: {PROVIDERS}: expected a list of provider ids ("standard")')
        for index, item in enumerate(items):
            try:
                parse_requirement(item)
            except ValueError as error:
                raise ConfigError(f"{path}: {PROVIDERS}[{index}]: {error}") from None
        providers = tuple(Fact(item, f"{path} {PROVIDERS}") for item in items)
    return DeploymentFacts(
        sources=(f"{path} (runtime contract of {runtime!r})",),
        runtimes=(RuntimeFact(runtime, str(path), providers=providers, labels=tuple(labels)),),
    )
