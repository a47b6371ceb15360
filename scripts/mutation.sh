#!/usr/bin/env bash
# Mutation testing, one area at a time: scripts/mutation.sh [resolve|rules]...
# A local tool, not part of CI: install it with `.venv/bin/pip install -e '.[mutation]'`.
# The mutated areas and the test selection are in pyproject.toml ([tool.mutmut]; diagnostics.py and
# formatters/ were run with an earlier selection: add them to only_mutate to run them again); results
# are kept in mutants/ (ignored by git), so a second run resumes with the mutants not yet run.
# Survivors are re-checked against the tests written for them with scripts/mutation_recheck.py.
# Each area's counts are printed as: area, mutants, killed, survived (benchmarks/mutation.md).
set -euo pipefail
cd "$(dirname "$0")/.."
mutmut=${MUTMUT:-.venv/bin/mutmut}
areas=("$@")
[ ${#areas[@]} -gt 0 ] || areas=(resolve rules)
for area in "${areas[@]}"; do
    case "$area" in
        diagnostics) pattern="dagroute_lint.diagnostics.*" ;;
        resolve | rules | formatters) pattern="dagroute_lint.$area.*" ;;
        *) echo "unknown area '$area' (resolve, rules, diagnostics, formatters)" >&2; exit 2 ;;
    esac
    "$mutmut" run --max-children 1 "$pattern" > "mutants/run-$area.log" 2>&1 || true
    prefix=${pattern%\*}
    "$mutmut" results --all true 2>/dev/null | awk -F': ' -v area="$area" -v prefix="$prefix" '
        { sub(/^ +/, "", $1) }
        index($1, prefix) == 1 { total++; count[$2]++ }
        END {
            line = sprintf("%s: %d mutants, %d killed, %d survived", area, total, count["killed"], count["survived"])
            for (status in count) if (status != "killed" && status != "survived") line = line sprintf(", %d %s", count[status], status)
            print line
        }'
done
