-- The report's `days` (shared/spec/projections.md, "progress-ledger report")
-- computed from the flat export (docs/analytics.md), over a view named
-- `events`. It runs unchanged on DuckDB and on Spark SQL: plain SQL only
-- (CASE, SUM, COUNT DISTINCT, %, FLOOR, CAST, DATE + integer, an inline
-- VALUES table), every column qualified (`user`, `type`, `day` and `at` are
-- keywords or functions in one engine or the other), no engine's functions.
--
-- One row per calendar day from the first to the last day of the export
-- (days without events included, as the report's default range), ordered by
-- day, with the `days` members as columns in the spec's order:
--   day, active_users, quizzes_started, quizzes_finished, completion_rate,
--   mean_score_percent, answers, accuracy, hints_used, puzzles_completed,
--   puzzles_failed, submissions
-- Every attempt rule (first start, first answer of a running attempt, first
-- end, the start day) is already applied by the export (`day`, `counted`,
-- `score`, `questions`); this file only counts and rounds.
WITH
per_day AS (
  SELECT
    e.day AS day,
    -- distinct users with an event other than a grant (of hints or streak
    -- freezes) or a streak pause (anomalies included)
    COUNT(DISTINCT CASE WHEN e.type NOT IN ('hints.granted', 'streak.freeze_granted', 'streak.paused')
                        THEN e.user END) AS active_users,
    SUM(CASE WHEN e.type = 'quiz.started' AND e.counted THEN 1 ELSE 0 END) AS quizzes_started,
    SUM(CASE WHEN e.type = 'quiz.finished' AND e.counted THEN 1 ELSE 0 END) AS quizzes_finished,
    -- counted first answers of quiz attempts, plus every submission answer
    SUM(CASE WHEN e.type = 'answer.selected' AND e.counted THEN 1
             WHEN e.type = 'submission.made' THEN e.answers
             ELSE 0 END) AS answers,
    SUM(CASE WHEN e.type = 'answer.selected' AND e.counted AND e.correct THEN 1
             WHEN e.type = 'submission.made' THEN e.correct_answers
             ELSE 0 END) AS correct,
    -- every hint.used, anomalies included (as state's hints.used)
    SUM(CASE WHEN e.type = 'hint.used' THEN 1 ELSE 0 END) AS hints_used,
    SUM(CASE WHEN e.type = 'puzzle.completed' THEN 1 ELSE 0 END) AS puzzles_completed,
    SUM(CASE WHEN e.type = 'puzzle.failed' THEN 1 ELSE 0 END) AS puzzles_failed,
    SUM(CASE WHEN e.type = 'submission.made' THEN 1 ELSE 0 END) AS submissions
  FROM events e
  GROUP BY e.day
),
-- mean_score_percent: the mean of score / questions over the day's counted
-- finishes, times 100, rounded once, halves up. Finishes are grouped by their
-- question count first, so each day adds one term per count, 100 *
-- f.score_sum / f.questions (the sums are exact integers). The 1e-9 makes the
-- double's rounding exact while lcm(question counts) * finishes < 5e8 a day:
-- a mean that is exactly a half, which the double may miss by ~1e-13, rounds
-- up, and any other mean is farther than 1e-9 from a half (docs/analytics.md).
finish_groups AS (
  SELECT e.day AS day, e.questions AS questions,
         SUM(e.score) AS score_sum, COUNT(*) AS finishes
  FROM events e
  WHERE e.type = 'quiz.finished' AND e.counted
  GROUP BY e.day, e.questions
),
means AS (
  SELECT f.day AS day,
         CAST(FLOOR(SUM(CAST(f.score_sum AS DOUBLE) * 100 / CAST(f.questions AS DOUBLE))
                    / CAST(SUM(f.finishes) AS DOUBLE) + 0.5 + 1e-9) AS BIGINT) AS mean_score_percent
  FROM finish_groups f
  GROUP BY f.day
),
-- every calendar day from the first to the last (up to 100,000 days)
bounds AS (
  SELECT CAST(MIN(e.day) AS DATE) AS first_day, CAST(MAX(e.day) AS DATE) AS last_day
  FROM events e
),
digits AS (
  SELECT t.d AS d FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) AS t(d)
),
offsets AS (
  SELECT d0.d + 10 * d1.d + 100 * d2.d + 1000 * d3.d + 10000 * d4.d AS n
  FROM digits d0 CROSS JOIN digits d1 CROSS JOIN digits d2 CROSS JOIN digits d3 CROSS JOIN digits d4
),
calendar AS (
  SELECT CAST(b.first_day + o.n AS STRING) AS day
  FROM bounds b CROSS JOIN offsets o
  WHERE b.first_day + o.n <= b.last_day
)
SELECT
  c.day AS day,
  COALESCE(p.active_users, 0) AS active_users,
  COALESCE(p.quizzes_started, 0) AS quizzes_started,
  COALESCE(p.quizzes_finished, 0) AS quizzes_finished,
  -- round(100 * part / whole), halves up, in integers: floor((200 part + whole) / (2 whole))
  CASE WHEN COALESCE(p.quizzes_started, 0) = 0 THEN NULL
       ELSE CAST(((200 * p.quizzes_finished + p.quizzes_started)
                  - (200 * p.quizzes_finished + p.quizzes_started) % (2 * p.quizzes_started))
                 / (2 * p.quizzes_started) AS BIGINT) END AS completion_rate,
  m.mean_score_percent AS mean_score_percent,
  COALESCE(p.answers, 0) AS answers,
  CASE WHEN COALESCE(p.answers, 0) = 0 THEN NULL
       ELSE CAST(((200 * p.correct + p.answers) - (200 * p.correct + p.answers) % (2 * p.answers))
                 / (2 * p.answers) AS BIGINT) END AS accuracy,
  COALESCE(p.hints_used, 0) AS hints_used,
  COALESCE(p.puzzles_completed, 0) AS puzzles_completed,
  COALESCE(p.puzzles_failed, 0) AS puzzles_failed,
  COALESCE(p.submissions, 0) AS submissions
FROM calendar c
LEFT JOIN per_day p ON p.day = c.day
LEFT JOIN means m ON m.day = c.day
ORDER BY c.day;
