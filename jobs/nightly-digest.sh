#!/usr/bin/env bash
# Nightly digest, after the night's run: what changed since the previous run (cells) and
# since the previous snapshot (records and fetch statuses), as one Markdown file.
# Environment:
#   DOSSIER_LAKE   lake URL (default ./lake)
#   OUT            the digest's path (default ./digest-YYYY-MM-DD.md, today in UTC)
# Prints the digest's path; exit 0 whether or not anything changed, 2 on errors.
set -uo pipefail
out=${OUT:-digest-$(date -u +%F).md}
dossier --quiet diff --from previous --to latest --format md > "$out"
rc=$?
if [ "$rc" -gt 1 ]; then
  echo "nightly-digest: the run diff failed (exit $rc)" >&2
  exit 2
fi
# the snapshots: only when a finished run pinned an earlier one
if snapshots=$(dossier --quiet diff --from snapshot:previous --to snapshot:latest --format md 2>/dev/null) \
  || [ $? -eq 1 ]; then
  printf '\n%s\n' "$snapshots" >> "$out"
fi
echo "$out"
