-- Rows as LocalPuzzleProgressStore.logAttempt writes them: UUIDs as
-- uuidString (uppercase), dates by ISO8601DateFormatter() (UTC, `Z`, whole
-- seconds), completion_time in seconds, NULL where the attempt has none.
-- Inserted out of time order on purpose: the import orders by time.
INSERT INTO puzzle_progress_attempts VALUES
 ('0B6C1E2A-7D3F-4A58-9E21-3C4B5D6E7F80', 'A1F0C3D2-1111-4A2B-8C3D-000000000001', 'caesar',       '2025-10-18T09:12:44Z', NULL,                   95.5),
 ('1C7D2F3B-8E40-4B69-AF32-4D5C6E7F8091', 'A1F0C3D2-1111-4A2B-8C3D-000000000001', 'caesar',       NULL,                   '2025-10-17T20:01:05Z', NULL),
 ('2D8E3A4C-9F51-4C7A-B043-5E6D7F8091A2', 'A1F0C3D2-1111-4A2B-8C3D-000000000001', 'caesar',       '2025-10-19T07:30:00Z', NULL,                   80.0),
 ('3E9F4B5D-A062-4D8B-8154-6F7E8091A2B3', 'A1F0C3D2-1111-4A2B-8C3D-000000000001', 'substitution', '2025-10-19T07:45:10Z', NULL,                   210.0),
 ('4FA05C6E-B173-4E9C-9265-708F91A2B3C4', 'B2E1D4C3-2222-4B3C-9D4E-000000000002', 'caesar',       NULL,                   '2025-10-20T22:59:59Z', 300.0),
 ('50B16D7F-C284-4FAD-A376-8190A2B3C4D5', 'B2E1D4C3-2222-4B3C-9D4E-000000000002', 'caesar',       '2025-10-21T23:10:03Z', NULL,                   150.25);
