"""Are the credential rule's patterns linear-time? Adversarial strings, growing tenfold.

Usage: python benchmarks/credential_patterns.py [--max-length N]
Every regular expression in ``dagroute_lint.rules.secrets`` and the functions that use them
run on strings built to make a backtracking engine try hard (long runs of the characters the
patterns match, with the one character that would complete a match missing, repeated pattern
prefixes). For each, the time at length N/100, N/10 and N is printed with the growth factor of
the last step: about 10 for linear time, 100 for quadratic. Exits 1 when a factor exceeds the
bound (30: three times linear, to allow for noise), so CI can run it by hand; timing here, not
in the tests.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable

from dagroute_lint.rules import secrets

GROWTH_BOUND = 30.0

# Units repeated to the wanted length. Each one is "almost a match" for some pattern.
UNITS = {
    "colons after ://": ("://", ":"),
    "user:password without @": ("://", "u:" + "p"),
    "repeated ://x:": ("", "://x:"),
    "long user, no colon": ("://", "u"),
    "underscores": ("", "_"),
    "secret words, no end": ("", "_password_x"),
    "camelCase": ("", "aB"),
    "mask characters then a letter": ("", "*x._#-"),
    "unclosed <": ("", "<a"),
    "unclosed ${": ("", "${a"),
    "unclosed %(": ("", "%(a"),
    "dollars": ("", "$a"),
    "spaces": ("", " "),
    "template markers": ("", "{{{%"),
}


def adversarial(length: int) -> dict[str, str]:
    out = {}
    for name, (prefix, unit) in UNITS.items():
        text = prefix + unit * (length // len(unit) + 1)
        out[name] = text[:length] + "!"  # a final character no pattern expects
    return out


def operations() -> dict[str, Callable[[str], object]]:
    found: dict[str, Callable[[str], object]] = {}
    for name, value in vars(secrets).items():
        if isinstance(value, re.Pattern):
            pattern = value
            found[f"{name}.search"] = pattern.search
            found[f"{name}.fullmatch"] = pattern.fullmatch
    found["secret_name()"] = secrets.secret_name
    found["stands_in()"] = secrets.stands_in
    found["uri_passwords()"] = lambda text: list(secrets.uri_passwords(text))
    found["findings()"] = lambda text: list(secrets.findings("password", "password", text))
    return found


def seconds(operation: Callable[[str], object], text: str) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        operation(text)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-length", type=int, default=2_000_000)
    largest = parser.parse_args().max_length
    lengths = (largest // 100, largest // 10, largest)
    inputs = {length: adversarial(length) for length in lengths}
    worst = 0.0
    failures = []
    print(f"{'operation':<28} {'input':<32} " + " ".join(f"{n:>10}" for n in lengths) + "  growth")
    for op_name, operation in operations().items():
        for input_name in UNITS:
            times = [seconds(operation, inputs[length][input_name]) for length in lengths[:2]]
            if times[1] > 0.5:  # already slow: a quadratic pattern would take minutes at N
                growth = times[1] / max(times[0], 50e-6)
                times.append(float("nan"))
            else:
                times.append(seconds(operation, inputs[lengths[2]][input_name]))
                # below 50 µs the clock, not the pattern, decides the ratio
                growth = times[2] / max(times[1], 50e-6)
            worst = max(worst, growth)
            if growth > GROWTH_BOUND:
                failures.append((op_name, input_name, growth))
            if growth > 3 or times[2] > 0.01:
                cells = " ".join(f"{t * 1000:>8.2f}ms" for t in times)
                print(f"{op_name:<28} {input_name:<32} {cells}  x{growth:.1f}")
    print(
        f"{len(operations())} operations x {len(UNITS)} inputs; worst growth for 10x length: "
        f"x{worst:.1f} (linear ~10, quadratic ~100; bound {GROWTH_BOUND:.0f})"
    )
    for op_name, input_name, growth in failures:
        print(f"SUPER-LINEAR: {op_name} on {input_name}: x{growth:.1f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
