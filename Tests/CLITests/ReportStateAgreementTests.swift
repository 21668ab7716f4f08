import Events
import Foundation
import Ledger
import Projections
import Testing

/// `report --format json` against the states of the same learners: each
/// learner's ``LearnerState`` says which of their events the attempt rules
/// refuse (its anomalies) and what their daily streak is at `to`; the report's
/// per-day members are then added up here, from the spec's wording:
///
/// - an answer, hint, finish or abandon of an attempt is on the day of the
///   attempt's `quiz.started`; every other event is on its own day;
/// - `active_users`: distinct users with an event that day other than `hints.granted`,
///   `streak.freeze_granted` and `streak.paused`;
/// - `quizzes_started`: starts the state does not call `duplicate_attempt`;
/// - answers and finishes count unless the state calls them `unknown_attempt`,
///   `after_end` or `duplicate_answer`; an attempt's score is its counted right answers;
/// - `hints_used`: every `hint.used`; puzzles and submissions: every event;
/// - `streaks`: each active user's `state --day TO` current streak (the demo grants
///   streak freezes and has learners pause: the walk with freezes and pauses).
@Suite("report --format json agrees with the learners' states on demo logs")
struct ReportStateAgreementTests {
    struct Counts: Codable, Equatable {
        var day: String?
        var active_users = 0, quizzes_started = 0, quizzes_finished = 0
        var completion_rate: Int?, mean_score_percent: Int?
        var answers = 0
        var accuracy: Int?
        var hints_used = 0, puzzles_completed = 0, puzzles_failed = 0, submissions = 0
    }
    struct Skill: Codable, Equatable { var skill: String; var correct: Int; var answers: Int; var accuracy: Int? }
    struct Bucket: Codable, Equatable { var current: Int; var users: Int }
    struct Streaks: Codable, Equatable { var day: String; var distribution: [Bucket] }
    struct ReportJSON: Codable, Equatable {
        var from: String, to: String
        var days: [Counts]
        var totals: Counts
        var skills: [Skill]
        var streaks: Streaks
    }

    /// One day's raw tally.
    struct Tally {
        var users = Set<[UInt8]>()
        var started = 0, finished = 0, answers = 0, correct = 0, hints = 0, solved = 0, failed = 0, submissions = 0
        /// Finished attempts' (score, questions).
        var results: [(Int, Int)] = []

        var counts: Counts {
            var c = Counts()
            c.active_users = users.count
            c.quizzes_started = started; c.quizzes_finished = finished
            c.completion_rate = ReportStateAgreementTests.percent(finished, started)
            c.answers = answers; c.accuracy = ReportStateAgreementTests.percent(correct, answers)
            c.hints_used = hints; c.puzzles_completed = solved; c.puzzles_failed = failed; c.submissions = submissions
            // The mean of 100 * score / questions, exactly: over the least common multiple of the totals.
            if !results.isEmpty {
                let l = results.reduce(1) { lcm($0, $1.1) }
                let sum = results.reduce(0) { $0 + $1.0 * (l / $1.1) }
                c.mean_score_percent = ReportStateAgreementTests.percent(sum, l * results.count)
            }
            return c
        }

        mutating func add(_ o: Tally) {
            users.formUnion(o.users)
            started += o.started; finished += o.finished; answers += o.answers; correct += o.correct
            hints += o.hints; solved += o.solved; failed += o.failed; submissions += o.submissions
            results += o.results
        }
    }

    /// `round(100 * part / whole)`, halves up; nil when the whole is 0.
    static func percent(_ part: Int, _ whole: Int) -> Int? { whole == 0 ? nil : (200 * part + whole) / (2 * whole) }

    /// What the states and the spec's wording give for the whole log.
    static func expected(_ records: [Record]) -> ReportJSON {
        let events = records.compactMap { if case .event(let e) = $0 { e } else { nil } }
        var users: [[UInt8]: String] = [:]
        for e in events { users[Array(e.user.utf8)] = e.user }
        var tally: [Int: Tally] = [:]
        var skills: [[UInt8]: (String, Int, Int)] = [:]
        var dayOf: [Int: Int] = [:]          // seq -> the day it is on
        var latest = Int.min, earliest = Int.max
        for (_, user) in users {
            let state = LearnerState(folding: records, options: StateOptions(user: user))
            let refused = Set(state.anomalies.filter {
                [.duplicateAttempt, .unknownAttempt, .afterEnd, .duplicateAnswer].contains($0.kind)
            }.map(\.seq))
            var starts: [[UInt8]: (day: Int, questions: Int, score: Int)] = [:]
            for e in events where Array(e.user.utf8) == Array(user.utf8) {
                let own = e.at.day.ordinal
                var day = own
                if e.event.type != .quizStarted, let id = e.event.attempt, let start = starts[Array(id.utf8)] { day = start.day }
                dayOf[e.seq] = day
                latest = max(latest, day); earliest = min(earliest, day)
                var t = tally[day] ?? Tally()
                if ![.hintsGranted, .streakFreezeGranted, .streakPaused].contains(e.event.type) { t.users.insert(Array(user.utf8)) }
                func answer(_ correct: Bool, _ skill: String?) {
                    t.answers += 1
                    if correct { t.correct += 1 }
                    if let skill {
                        let s = skills[Array(skill.utf8)] ?? (skill, 0, 0)
                        skills[Array(skill.utf8)] = (skill, s.1 + (correct ? 1 : 0), s.2 + 1)
                    }
                }
                switch e.event {
                case .quizStarted(let s) where !refused.contains(e.seq):
                    starts[Array(s.attempt.utf8)] = (own, s.questions, 0)
                    t.started += 1
                case .answerSelected(let a) where !refused.contains(e.seq):
                    answer(a.correct, a.skill)
                    if a.correct { starts[Array(a.attempt.utf8)]?.score += 1 }
                case .quizFinished(let f) where !refused.contains(e.seq):
                    t.finished += 1
                    if let s = starts[Array(f.attempt.utf8)] { t.results.append((s.score, s.questions)) }
                case .hintUsed: t.hints += 1
                case .puzzleCompleted: t.solved += 1
                case .puzzleFailed: t.failed += 1
                case .submissionMade(let s):
                    t.submissions += 1
                    for a in s.answers { answer(a.correct, a.skill) }
                default: break
                }
                tally[day] = t
            }
        }
        var rows: [Counts] = []
        var total = Tally()
        for ordinal in earliest...latest {
            let t = tally[ordinal] ?? Tally()
            var row = t.counts
            row.day = Day(ordinal: ordinal).description
            rows.append(row)
            total.add(t)
        }
        // Each active user's current daily streak, as `state --day TO` has it from the events on days up to TO.
        let to = Day(ordinal: latest)
        var buckets: [Int: Int] = [:]
        let upToTo = records.filter { dayOf[$0.seq].map { $0 <= latest } ?? true }
        for key in total.users {
            guard let user = users[key] else { continue }
            let state = LearnerState(folding: upToTo, options: StateOptions(user: user, day: to))
            buckets[state.streak.current, default: 0] += 1
        }
        let skillRows = skills.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map {
            Skill(skill: $0.value.0, correct: $0.value.1, answers: $0.value.2, accuracy: percent($0.value.1, $0.value.2))
        }
        return ReportJSON(
            from: Day(ordinal: earliest).description, to: to.description, days: rows, totals: total.counts,
            skills: skillRows,
            streaks: Streaks(day: to.description,
                             distribution: buckets.sorted { $0.key < $1.key }.map { Bucket(current: $0.key, users: $0.value) }))
    }

    @Test("demo logs: every day, the totals, the skills and the streaks",
          arguments: [(42, 30, 30), (7, 30, 30), (3, 12, 20), (11, 24, 20), (2024, 8, 45)])
    func demo(seed: Int, users: Int, days: Int) throws {
        let dir = try TemporaryDirectory()
        let log = try LogFixture.demo(in: dir, users: users, days: days, seed: seed)
        let r = try CLI.run(["report", log, "--format", "json", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        let actual = try JSONDecoder().decode(ReportJSON.self, from: Data(r.stdout.utf8))
        var records: [Record] = []
        try LogReader(path: log).read { records.append($0) }
        let expected = Self.expected(records)
        // The demo's freezes and pauses reach the distribution: some learner's run going on at TO crossed a frozen or paused day.
        let to = try #require(Day(actual.to))
        let learners = Set(records.compactMap { if case .event(let e) = $0 { e.user } else { nil } })
        let graced = learners.filter { user in
            let streak = LearnerState(folding: records, options: StateOptions(user: user, day: to)).streak
            return streak.current > 0 && (streak.runs.last.map { !$0.frozen.isEmpty || $0.paused > 0 } ?? false)
        }
        #expect(!graced.isEmpty)
        // Real data: the demo's days (and a day more where time zones reach past them), starts, answers.
        #expect(actual.days.count >= days && actual.totals.quizzes_started > users && actual.totals.answers > users)
        for (a, e) in zip(actual.days, expected.days) { #expect(a == e) }
        #expect(actual == expected)
    }

    @Test("seed 42: 13 users were active on 2025-11-02 (one of them only by a reused attempt id)")
    func seed42() throws {
        let dir = try TemporaryDirectory()
        let log = try LogFixture.demo(in: dir, users: 30, days: 30, seed: 42)
        let r = try CLI.run(["report", log, "--format", "json", "--from", "2025-11-02", "--to", "2025-11-02", "--quiet"])
        let report = try JSONDecoder().decode(ReportJSON.self, from: Data(r.stdout.utf8))
        #expect(report.days.map(\.active_users) == [13])
    }
}

private func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
private func lcm(_ a: Int, _ b: Int) -> Int { a / gcd(a, b) * b }
