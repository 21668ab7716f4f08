-- The seed's schema, verbatim (seed 003, "Schema (Latest Version, Multi-Attempt)").
CREATE TABLE IF NOT EXISTS puzzle_progress_attempts (
    attempt_id TEXT PRIMARY KEY,          -- Unique ID for each attempt (UUID or autoincrement)
    puzzle_id TEXT NOT NULL,              -- Foreign key to quotes table (the quote UID)
    encoding_type TEXT NOT NULL,
    completed_at TEXT,
    failed_at TEXT,
    completion_time REAL,
    FOREIGN KEY (puzzle_id) REFERENCES quotes(id)
);
