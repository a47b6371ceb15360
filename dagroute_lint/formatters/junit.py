"""JUnit XML, the test report CI systems show (GitLab's test report, Jenkins, Azure Pipelines).

As ruff writes it: a ``testsuite`` per file with problems, a ``testcase`` per diagnostic, each
failing with a ``<failure>`` whose ``type`` is the code, ``message`` the message, and text the
flake8-style line (location, code, severity, message). A run with nothing to report is one
suite holding one passing case, so a CI system shows a passed check rather than no tests; files
without problems are not listed (the formatter sees diagnostics, not files).

XML 1.0 cannot hold most control characters even escaped, nor lone surrogates (the bytes of a
file name that is not UTF-8): those are written as Python escapes (``\\x1b``, ``\\udce9``), the
rest as it is (newlines included, which XML keeps).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.rules.registry import rule_name

SUITES_NAME = "dagroute-lint"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str) -> str:
    """``text`` with what XML 1.0 cannot carry written as Python escapes."""
    return _NOT_XML.sub(lambda found: _escape(found.group()), text)


def _escape(character: str) -> str:
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def format_junit(diagnostics: Sequence[Diagnostic]) -> str:
    suites = ET.Element("testsuites", name=SUITES_NAME)
    total = len(diagnostics)
    by_path: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        by_path.setdefault(diagnostic.path, []).append(diagnostic)
    for path, found in by_path.items():
        suite = _suite(suites, _xml(path), len(found), len(found))
        for d in found:
            name = rule_name(d.code)
            case = ET.SubElement(
                suite,
                "testcase",
                classname=_xml(path),
                name=f"{d.code}{f' {name}' if name else ''} at line {d.line}, column {d.column}",
                file=_xml(path),
                line=str(d.line),
                time="0",
            )
            failure = ET.SubElement(case, "failure", type=d.code, message=_xml(d.message))
            failure.text = _xml(f"{path}:{d.line}:{d.column}: {d.code} [{d.severity}] {d.message}")
    if not diagnostics:
        suite = _suite(suites, SUITES_NAME, 1, 0)
        ET.SubElement(suite, "testcase", classname=SUITES_NAME, name="no problems", time="0")
        total = 1
    suites.set("tests", str(total))
    suites.set("failures", str(len(diagnostics)))
    suites.set("errors", "0")
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, "unicode") + "\n"


def _suite(parent: ET.Element, name: str, tests: int, failures: int) -> ET.Element:
    return ET.SubElement(
        parent,
        "testsuite",
        name=name,
        tests=str(tests),
        failures=str(failures),
        errors="0",
        skipped="0",
        time="0",
    )
