#!/usr/bin/env bash
# balance check and balance report on the scenarios a push or pull request changed: the commands the GitHub Actions
# workflow (.github/workflows/balance.yml) runs, kept here so that tests/cli/test_ci_workflow.py runs exactly them.
#
#   .ci/balance-check.sh BASE [OUT]
#
# BASE: the commit to compare with (a pull request's base, a push's previous head); empty, all zeros or unknown
# means every scenario. A scenario counts as changed when anything under balance/ changed (the rules themselves), or
# when `balance affected` lists it: its file, a file its `extends` chain reads (at any depth) or a file it loads (a
# map) changed, or it no longer loads. OUT (default balance-ci/) receives summary.md (also appended to
# $GITHUB_STEP_SUMMARY when set), junit.xml, check.json, and reports/<scenario>/ from `balance report`.
# The exit code is balance check's: 0 every claim passes, 1 one fails, 3 one is inconclusive, 2 bad input.
# BALANCE names the command (default: balance).
set -uo pipefail
base="${1:-}"
out="${2:-balance-ci}"
balance="${BALANCE:-balance}"
mkdir -p "$out/reports"

all=$(ls scenarios/*.toml 2>/dev/null | sort)
if [[ -z "$base" || "$base" =~ ^0+$ ]] || ! git cat-file -e "${base}^{commit}" 2>/dev/null; then
    changed="$all"
elif [[ -n "$(git diff --name-only "$base" HEAD -- balance/)" ]]; then
    changed="$all"
else
    # shellcheck disable=SC2086
    changed=$(git diff --name-only "$base" HEAD | "$balance" affected $all) || exit 2
fi

if [[ -z "${changed//[[:space:]]/}" ]]; then
    echo "No scenario changed: nothing to check." | tee "$out/summary.md"
    [[ -n "${GITHUB_STEP_SUMMARY:-}" ]] && cat "$out/summary.md" >> "$GITHUB_STEP_SUMMARY"
    exit 0
fi
echo "checking: $(echo $changed)"

# shellcheck disable=SC2086
"$balance" check $changed --summary "$out/summary.md" --junit "$out/junit.xml" --json > "$out/check.json"
status=$?
for f in $changed; do
    "$balance" report "$f" -o "$out/reports/$(basename "$f" .toml)" > /dev/null || { [[ $status == 0 ]] && status=2; }
done
[[ -n "${GITHUB_STEP_SUMMARY:-}" && -f "$out/summary.md" ]] && cat "$out/summary.md" >> "$GITHUB_STEP_SUMMARY"
exit "$status"
