import Events

/// A member of `state --json` that `explain` can explain: the rule in one
/// sentence and the members whose changes mark the events behind it.
struct ExplainedPath {
    var path: String
    var rule: String
    /// Paths whose value changes when an event behind `path` is folded.
    var witnesses: [String]
    /// For a streak: which of the state's `streak.runs` the events must fall in.
    var run: Run?

    /// A run of `streak.runs` in the final state.
    enum Run {
        /// The last run: the current one (or, when the streak is 0, the one that broke).
        case last
        /// The first run as long as `streak.longest`.
        case longest
    }

    /// The paths with a rule of their own, and their witnesses.
    static let table: [(path: String, witnesses: [String], run: Run?, rule: String)] = [
        ("streak.current", ["streak.runs"], .last,
         "The active days (a day with a finished daily quiz attempt, counted on the day the attempt started) of the run going on at D: a run goes on across a paused day, across D (not over yet), and across a missed day paid by a streak freeze held (grants add their amount, at most 2 held), and ends at a missed day with no freeze; else 0 (then the events shown are those of the run that ended). Frozen and paused days count nothing; the grants that paid for the run's frozen days and the pauses of its paused days are shown with them."),
        ("streak.longest", ["streak.runs"], .longest,
         "The most active days (days with a finished daily quiz attempt) of any run up to D; a run goes on across paused days and days paid by a streak freeze, which count nothing (the grants and pauses behind them are shown)."),
        ("daily_quiz.status", ["daily_quiz.status", "daily_quiz.attempt", "daily_quiz.answered"], nil,
         "The status of the latest daily quiz attempt started on D: not_started if none, in_progress, completed (finished) or abandoned."),
        ("daily_quiz.retries_left", ["daily_quiz.attempts", "daily_quiz.retries_left"], nil,
         "max(0, retry limit - retries used), where retries used is the number of daily attempts started on D minus 1 (at least 0)."),
        ("hints.balance", ["hints.granted", "hints.used", "hints.balance"], nil,
         "The sum of hints granted, less 1 for each hint used while the balance was above 0 (a use at 0 is an overdraw anomaly and takes nothing)."),
        ("stats.accuracy", ["stats.questions_answered", "stats.correct", "stats.accuracy"], nil,
         "The percent correct of the first answers of every quiz attempt and of every submission answer (a hint on the question makes no difference here)."),
        ("study_plan.weaknesses", ["study_plan.weaknesses"], nil,
         "The skills with at least 3 counted answers (the 20 most recent per category and skill; an answer after a hint on its question counts as wrong) of which fewer than 60% are correct, weakest first."),
        ("achievements", ["achievements"], nil,
         "Each achievement in the order earned, dated by the event after which its condition first held (streak_7, quizzes_30, perfect_10, perfect_week, ...)."),
    ]

    init(_ path: String) {
        self.path = path
        if let known = ExplainedPath.table.first(where: { $0.path == path }) {
            rule = known.rule; witnesses = known.witnesses; run = known.run
        } else {
            rule = "The member \(path) of state --json, as the state's projections compute it from the learner's events (see docs/projections.md)."
            witnesses = [path]
        }
    }

    /// The days of the run ``run`` selects in `state`'s `streak.runs`, or nil (every day).
    func days(in state: LearnerState) throws(Explanation.UnknownPath) -> ClosedRange<Day>? {
        guard let run else { return nil }
        let document: JSONValue
        do { document = try JSONDocument.parse(state.jsonBytes) } catch { return nil }
        guard case .object(let top) = document, case .object(let streak)? = top.first(where: { $0.name == "streak" })?.value,
              case .array(let runs)? = streak.first(where: { $0.name == "runs" })?.value,
              case .number(let longestText)? = streak.first(where: { $0.name == "longest" })?.value else { return nil }
        func bounds(_ value: JSONValue) -> (ClosedRange<Day>, Int)? {
            guard case .object(let m) = value, case .string(let s)? = m.first(where: { $0.name == "start" })?.value,
                  case .string(let e)? = m.first(where: { $0.name == "end" })?.value,
                  case .number(let n)? = m.first(where: { $0.name == "days" })?.value,
                  let start = Day(s), let end = Day(e), start <= end, let days = Int(n) else { return nil }
            return (start...end, days)
        }
        let all = runs.compactMap(bounds)
        switch run {
        case .last: return all.max { $0.0.upperBound < $1.0.upperBound }?.0 ?? (Day(ordinal: 0)...Day(ordinal: 0))
        case .longest: return all.first { $0.1 == Int(longestText) }?.0 ?? (Day(ordinal: 0)...Day(ordinal: 0))
        }
    }

    /// The run ``run`` selects among the walk's runs (as ``days(in:)`` does in `streak.runs`), or nil.
    func run(in walk: StreakWalk, longest: Int) -> StreakWalk.Run? {
        switch run {
        case nil: nil
        case .last: walk.runs.last
        case .longest: walk.runs.first { $0.run.days == longest }
        }
    }

    /// The value at `path` in `state` and the witnesses' values.
    func members(of state: LearnerState) throws(Explanation.UnknownPath) -> (value: JSONValue, witnesses: [JSONValue]) {
        let document: JSONValue
        do { document = try JSONDocument.parse(state.jsonBytes) } catch {
            throw Explanation.UnknownPath(path: path, known: ExplainedPath.table.map(\.path))
        }
        func member(_ path: String) throws(Explanation.UnknownPath) -> JSONValue {
            var value = document
            for name in path.split(separator: ".", omittingEmptySubsequences: false) {
                guard case .object(let members) = value, let next = members.first(where: { $0.name == name }) else {
                    throw Explanation.UnknownPath(path: self.path, known: ExplainedPath.table.map(\.path))
                }
                value = next.value
            }
            return value
        }
        var witnessed: [JSONValue] = []
        for w in witnesses { witnessed.append(try member(w)) }
        return (try member(path), witnessed)
    }
}
