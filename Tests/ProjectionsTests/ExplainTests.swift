import Events
import Foundation
import Projections
import Testing

/// `explain` folds a learner's events once; these tests hold it to the plain
/// way, written differently: after each event, the whole state of the events
/// so far (`LearnerState(folding:)` of the prefix, its JSON parsed by
/// Foundation), the witness members compared with those after the event
/// before. That is quadratic, so the logs are small.
@Suite("explain: one fold agrees with the whole state after each event")
struct ExplainTests {
    /// The members whose change marks an event behind each path (docs/privacy.md, "explain").
    static let witnesses: [(path: String, members: [String])] = [
        ("streak.current", ["streak.runs"]),
        ("streak.longest", ["streak.runs"]),
        ("daily_quiz.status", ["daily_quiz.status", "daily_quiz.attempt", "daily_quiz.answered"]),
        ("daily_quiz.retries_left", ["daily_quiz.attempts", "daily_quiz.retries_left"]),
        ("hints.balance", ["hints.granted", "hints.used", "hints.balance"]),
        ("stats.accuracy", ["stats.questions_answered", "stats.correct", "stats.accuracy"]),
        ("study_plan.weaknesses", ["study_plan.weaknesses"]),
        ("achievements", ["achievements"]),
        // Any other path is its own witness.
        ("stats.active_days", ["stats.active_days"]),
        ("stats.time_spent_seconds", ["stats.time_spent_seconds"]),
        ("streak.active_today", ["streak.active_today"]),
        ("anomalies", ["anomalies"]),
        ("quizzes", ["quizzes"]),
        ("history", ["history"]),
        ("daily_quiz.best_score", ["daily_quiz.best_score"]),
    ]

    static func member(_ json: Any, _ path: String) -> Any? {
        var value: Any? = json
        for name in path.split(separator: ".") { value = (value as? [String: Any])?[String(name)] }
        return value
    }

    static func canonical(_ value: Any?) -> Data {
        guard let value else { return Data("absent".utf8) }
        return (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
    }

    /// The seqs of the events behind `path`, the plain way.
    static func reference(_ path: String, _ records: [Record], _ options: StateOptions) throws -> (seqs: [Int], value: Data) {
        let members = try #require(witnesses.first { $0.path == path }?.members)
        let final = LearnerState(folding: records, options: options)
        var fixed = options
        fixed.day = final.day
        func witnessed(_ prefix: ArraySlice<Record>) throws -> [Data] {
            let json = try JSONSerialization.jsonObject(with: Data(LearnerState(folding: prefix, options: fixed).jsonBytes))
            return members.map { canonical(member(json, $0)) }
        }
        var timeline = AuditTimeline(user: options.user)
        var previous = try witnessed(records[0..<0])
        var behind: [(seq: Int, day: Day?)] = []
        for k in records.indices {
            let entry = timeline.add(records[k])
            let now = try witnessed(records[...k])
            if now != previous, let entry { behind.append((entry.seq, entry.day)) }
            previous = now
        }
        // The streaks keep the events on the days of the run they count.
        if path == "streak.current" || path == "streak.longest" {
            let runs = final.streak.runs
            let run = path == "streak.current" ? runs.last : runs.first { $0.days == final.streak.longest }
            behind.removeAll { e in run.map { r in e.day.map { !(r.start...r.end).contains($0) } ?? true } ?? true }
        }
        let json = try JSONSerialization.jsonObject(with: Data(final.jsonBytes))
        return (behind.map(\.seq), canonical(member(json, path)))
    }

    @Test("events and value equal the plain way's, on random logs", arguments: [UInt64(3), 17, 29, 41])
    func agreesWithThePlainWay(seed: UInt64) throws {
        let records = RandomLog.make(seed: seed, count: 220)
        for user in RandomLog.users {
            for (k, options) in [StateOptions(user: user), StateOptions(user: user, retryLimit: 2, streakOn: .any),
                                 StateOptions(user: user, day: Day("2025-10-04"), days: 3)].enumerated() {
                for (path, _) in Self.witnesses {
                    let explained = try Explanation.explain(path, records: records, options: options)
                    let expected = try Self.reference(path, records, options)
                    #expect(explained.events.map(\.seq) == expected.seqs, "seed \(seed) \(user) options #\(k) \(path)")
                    let value = try JSONSerialization.jsonObject(with: Data(Self.valueJSON(explained).utf8), options: .fragmentsAllowed)
                    #expect(Self.canonical(value) == expected.value, "seed \(seed) \(user) options #\(k) \(path): value")
                }
            }
        }
    }

    /// The explanation's value as JSON text (from its `--json` form).
    static func valueJSON(_ e: Explanation) -> String {
        let object = (try? JSONSerialization.jsonObject(with: Data(e.jsonBytes))) as? [String: Any]
        return object.flatMap { o in o["value"].flatMap { try? JSONSerialization.data(withJSONObject: $0, options: .fragmentsAllowed) } }
            .map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    @Test("a path the state does not have is refused, naming the paths with a rule")
    func unknownPath() {
        #expect(throws: Explanation.UnknownPath.self) { try Explanation.explain("streak.nope", records: [], options: StateOptions(user: "u")) }
        #expect(throws: Explanation.UnknownPath.self) { try Explanation.explain("nothing", records: [], options: StateOptions(user: "u")) }
    }

    @Test("a learner without events: the empty state's value and no event")
    func noEvents() throws {
        let e = try Explanation.explain("hints.balance", records: RandomLog.make(seed: 5, count: 40), options: StateOptions(user: "nobody"))
        #expect(e.events.isEmpty && e.value == .number("0"))
    }
}
