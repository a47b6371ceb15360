#!/usr/bin/env bash
# Mutation testing of [tool.mutmut]'s areas, with counts per area: scripts/mutation.sh [resolve|rules]...
# A local tool, not part of CI: install it with `.venv/bin/pip install -e '.[mutation]'`.
# The mutated areas and the test selection are in pyproject.toml ([tool.mutmut]; diagnostics.py and
# formatters/ were run with an earlier selection: add them to only_mutate to run them again); results
# are kept in mutants/ (ignored by git), so a second run resumes with the mutants not yet run:
# mutmut runs every mutant without a result when given no names (a name or pattern runs its
# mutants again, results or not), so the run is one call for all of [tool.mutmut]'s areas.
# Survivors are re-checked against the tests written for them with scripts/mutation_recheck.py.
# Each area's counts are printed as: area, mutants, killed, survived (benchmarks/mutation.md).
set -euo pipefail
cd "$(dirname "$0")/.."
mutmut=${MUTMUT:-.venv/bin/mutmut}
areas=("$@")
[ ${#areas[@]} -gt 0 ] || areas=(resolve rules)
mkdir -p mutants
"$mutmut" run --max-children 1 > mutants/run.log 2>&1 || true
for area in "${areas[@]}"; do
    case "$area" in
        diagnostics) pattern="dagroute_lint.diagnostics.*" ;;
        resolve | rules | formatters) pattern="dagroute_lint.$area.*" ;;
        *) echo "unknown area '$area' (resolve, rules, diagnostics, formatters)" >&2; exit 2 ;;
    esac
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
