#!/usr/bin/env bash
# Nightly Layer 1 job (import form). Environment:
#   DOSSIER_LAKE       lake URL (default ./lake; s3://, gs://, az:// in production)
#   PORTFOLIO          portfolio TOML (default portfolio.toml)
#   IMPORT_DIR         bulk downloads laid out as <family>/<files> (default ./downloads)
# Prints the snapshot id on stdout; exit 2 on any error, and then no manifest is written.
set -euo pipefail
exec dossier snapshot --portfolio "${PORTFOLIO:-portfolio.toml}" --import "${IMPORT_DIR:-./downloads}"
