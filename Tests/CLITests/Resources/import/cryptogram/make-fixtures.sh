#!/usr/bin/env bash
# Builds the cryptogram fixtures with the sqlite3 CLI from the seed's schema:
# the app's database file (attempts.sqlite) and its CSV form
# (sqlite3 -csv -header), and one bad-*.sqlite / bad-*.csv per kind of bad row.
# Run from this folder: ./make-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")"
mk() { # mk NAME SQL...: a database from the schema and the given SQL, plus its CSV
  local name=$1; shift
  rm -f "$name.sqlite"
  { cat schema.sql; printf '%s\n' "$@"; } | sqlite3 "$name.sqlite"
  sqlite3 -csv -header "$name.sqlite" 'SELECT * FROM puzzle_progress_attempts ORDER BY rowid;' > "$name.csv"
}
mk attempts "$(cat attempts.sql)"
good="$(cat attempts.sql)"
mk bad-neither-completed-nor-failed "$good" \
  "UPDATE puzzle_progress_attempts SET completed_at = NULL WHERE attempt_id = '2D8E3A4C-9F51-4C7A-B043-5E6D7F8091A2';"
mk bad-completed-and-failed "$good" \
  "UPDATE puzzle_progress_attempts SET failed_at = '2025-10-19T07:31:00Z' WHERE attempt_id = '2D8E3A4C-9F51-4C7A-B043-5E6D7F8091A2';"
mk bad-completed-without-time "$good" \
  "UPDATE puzzle_progress_attempts SET completion_time = NULL WHERE attempt_id = '3E9F4B5D-A062-4D8B-8154-6F7E8091A2B3';"
mk bad-time-not-positive "$good" \
  "UPDATE puzzle_progress_attempts SET completion_time = 0 WHERE attempt_id = '0B6C1E2A-7D3F-4A58-9E21-3C4B5D6E7F80';"
mk bad-time-not-a-number "$good" \
  "UPDATE puzzle_progress_attempts SET completion_time = 'fast' WHERE attempt_id = '0B6C1E2A-7D3F-4A58-9E21-3C4B5D6E7F80';"
mk bad-date-not-rfc3339 "$good" \
  "UPDATE puzzle_progress_attempts SET completed_at = '2025-10-18 09:12:44' WHERE attempt_id = '0B6C1E2A-7D3F-4A58-9E21-3C4B5D6E7F80';"
mk bad-empty-encoding "$good" \
  "UPDATE puzzle_progress_attempts SET encoding_type = '' WHERE attempt_id = '50B16D7F-C284-4FAD-A376-8190A2B3C4D5';"
# CSV-only kinds (a database cannot hold them: the primary key, the columns)
{ cat attempts.csv; sed -n 2p attempts.csv; } > bad-duplicate-attempt-id.csv
sed '1s/completion_time/time_taken/' attempts.csv > bad-missing-column.csv
# A table without the seed's name (the database kind of a missing column)
rm -f bad-no-table.sqlite
sqlite3 bad-no-table.sqlite 'CREATE TABLE puzzle_attempts (attempt_id TEXT PRIMARY KEY);'
