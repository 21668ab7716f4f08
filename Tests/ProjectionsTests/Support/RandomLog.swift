import Events
import Simulation

/// The name the seeded tests used for their own copy of SplitMix64, kept so
/// that tests written against it (on branches made before the copies were
/// folded) still compile and draw the same numbers. It shadows Simulation's
/// `SeededGenerator` (the demo's xoshiro256**) in this target.
@available(*, deprecated, renamed: "SplitMix64", message: "use Simulation's SplitMix64")
typealias SeededGenerator = SplitMix64

/// Random valid logs: several users, time zones that change (travel), clocks
/// that jump back (late sync), daily and other quizzes, answers, hints,
/// finishes, abandons, puzzles, submissions, grants, resets, newer-version
/// lines, and the surprises the anomalies report.
struct RandomLog {
    static let users = ["u-1", "u-2", "u-\u{E9}"]
    static let offsets = [0, 540, -480, 330, 180, -300, 60, 120]
    static let skills = ["inference", "vocab", "grammar", "logic", nil]
    static let categories: [String?] = ["reading", "math", nil, "writing"]

    private var rng: SplitMix64
    private var records: [Record] = []
    private var clock: Int64 = 1_759_276_800   // 2025-10-01T00:00:00Z
    private var offset = 0
    private var attempts: [String: [(id: String, questions: Int, open: Bool)]] = [:]
    private var next = 0

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// A log of `count` lines.
    static func make(seed: UInt64, count: Int) -> [Record] {
        var log = RandomLog(seed: seed)
        for _ in 0..<count { log.step() }
        return log.records
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }

    private mutating func timestamp() -> Timestamp {
        clock += Int64(pick([0, 1, 30, 300, 3_600, 5 * 3_600, 20 * 3_600]))
        if chance(10) { offset = pick(Self.offsets) }
        var at = clock
        if chance(3) { at -= Int64(Int.random(in: 1...200_000, using: &rng)) }   // late-synced
        let local = at + Int64(offset * 60)
        let day = Day(ordinal: Int((local - ((local % 86_400) + 86_400) % 86_400) / 86_400))
        let secondOfDay = Int(((local % 86_400) + 86_400) % 86_400)
        let fraction = chance(20) ? "." + String(Int.random(in: 1...999, using: &rng)) : ""
        let sign = offset < 0 ? "-" : "+"
        let zone = offset == 0 && chance(50) ? "Z"
            : "\(sign)\(pad(abs(offset) / 60)):\(pad(abs(offset) % 60))"
        let text = "\(day)T\(pad(secondOfDay / 3600)):\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60))\(fraction)\(zone)"
        do { return try Timestamp(parsing: text) } catch { fatalError("generator made a bad timestamp \(text)") }
    }

    private func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    private mutating func step() {
        let user = pick(Self.users)
        let seq = records.count + 1
        if chance(1) {
            records.append(.newer(NewerVersionLine(version: 3, seq: seq, id: "e-\(seq)", user: chance(80) ? user : nil,
                                                   prev: Envelope.genesis, type: "quiz.paused")))
            return
        }
        let at = timestamp()
        let mine = attempts[user] ?? []
        let open = mine.filter(\.open)
        let event: Event
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<14:
            var id = "a-\(next)"
            next += 1
            if chance(4), let old = mine.first { id = old.id }     // reused id: duplicate_attempt
            let questions = Int.random(in: 1...6, using: &rng)
            if !mine.contains(where: { $0.id == id }) { attempts[user, default: []].append((id, questions, true)) }
            event = .quizStarted(QuizStarted(attempt: id, quiz: pick(["daily-a", "daily-b", "x", "y"]),
                                             questions: questions, daily: chance(60) ? true : (chance(50) ? false : nil),
                                             category: pick(Self.categories), diagnostic: chance(10) ? true : nil))
        case 14..<50:
            let target = chance(90) ? (open.isEmpty ? nil : pick(open)) : (mine.isEmpty ? nil : pick(mine))
            let attempt = chance(3) ? "ghost" : (target?.id ?? "ghost")
            let question = "q\(Int.random(in: 1...(target?.questions ?? 3), using: &rng))"
            event = .answerSelected(AnswerSelected(attempt: attempt, question: question, choice: 0,
                                                   correct: chance(65), skill: pick(Self.skills)))
        case 50..<58:
            let target = open.isEmpty ? nil : pick(open)
            event = .hintUsed(HintUsed(attempt: target?.id ?? "ghost", question: "q\(Int.random(in: 1...3, using: &rng))",
                                       hint: chance(50) ? .fiftyFifty : .reveal))
        case 58..<72:
            let target = chance(92) ? (open.isEmpty ? nil : pick(open)) : (mine.isEmpty ? nil : pick(mine))
            let id = target?.id ?? "ghost"
            if let i = attempts[user]?.firstIndex(where: { $0.id == id }) { attempts[user]?[i].open = false }
            let ended = AttemptEnded(attempt: id)
            event = chance(80) ? .quizFinished(ended) : .quizAbandoned(ended)
        case 72..<82:
            let played = PuzzlePlayed(puzzle: pick(["p-1", "p-2", "P-3"]), encoding: pick(["caesar", "substitution"]),
                                      seconds: chance(85) ? Seconds(literal: pick(["12", "30.5", "7", "100"])) : nil)
            event = played.seconds != nil && chance(70) ? .puzzleCompleted(played) : .puzzleFailed(played)
        case 82..<92:
            let count = Int.random(in: 0...4, using: &rng)
            let answers = (0..<count).map { i in
                SubmissionMade.Answer(question: "s\(i)", choice: 0, correct: chance(60), skill: pick(Self.skills))
            }
            event = .submissionMade(SubmissionMade(content: pick(["l-1", "l-2", "passage-1"]),
                                                   kind: chance(50) ? .lesson : .passage,
                                                   category: pick(["reading", "math"]), diagnostic: chance(10) ? true : nil,
                                                   answers: answers))
        case 92..<98:
            event = .hintsGranted(HintsGranted(amount: Int.random(in: 1...3, using: &rng), reason: .reward))
        default:
            event = .progressReset(ProgressReset(scope: pick(ProgressReset.Scope.allCases)))
        }
        records.append(.event(Envelope(seq: seq, id: "e-\(seq)", at: at, user: user, event: event, prev: Envelope.genesis)))
    }
}
