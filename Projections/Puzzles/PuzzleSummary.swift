import Events

/// One puzzle played in one encoding.
public struct PuzzleSummary: Sendable, Hashable {
    /// How a puzzle attempt went.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// `puzzle.completed`.
        case completed
        /// `puzzle.failed`.
        case failed
    }

    /// The last attempt at the puzzle in this encoding.
    public struct Latest: Sendable, Hashable {
        /// Completed or failed.
        public var outcome: Outcome
        /// Its `at`, as written.
        public var at: Timestamp
        /// Its `seconds`; nil when a failure had none.
        public var seconds: Seconds?

        /// Makes the latest attempt.
        public init(outcome: Outcome, at: Timestamp, seconds: Seconds?) {
            self.outcome = outcome; self.at = at; self.seconds = seconds
        }
    }

    /// The puzzle id.
    public var puzzle: String
    /// The encoding it was played in.
    public var encoding: String
    /// Attempts (completions and failures).
    public var attempts: Int
    /// Completions.
    public var completed: Int
    /// Failures.
    public var failed: Int
    /// The least `seconds` of completions (the first written on a tie); nil if none.
    public var bestSeconds: Seconds?
    /// The last attempt (log order).
    public var latest: Latest

    /// Makes a puzzle summary.
    public init(puzzle: String, encoding: String, attempts: Int, completed: Int, failed: Int,
                bestSeconds: Seconds?, latest: Latest) {
        self.puzzle = puzzle; self.encoding = encoding; self.attempts = attempts; self.completed = completed
        self.failed = failed; self.bestSeconds = bestSeconds; self.latest = latest
    }
}
