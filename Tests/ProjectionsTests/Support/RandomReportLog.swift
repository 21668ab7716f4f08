import Events
import Simulation

/// Random valid logs of many learners for the report: the surprises that
/// change which day an event counts on and whether it counts.
///
/// Learners travel between time zones (−12:00 to +14:00) and start quizzes
/// just before local midnight; devices sync late (an `at` hours or days
/// earlier than the line before). Attempt ids are reused (`duplicate_attempt`),
/// named before their start or never started (`unknown_attempt`), answered,
/// hinted and ended again after their end (`after_end`); questions are
/// answered twice; resets of every scope come and go; some learners only ever
/// receive `hints.granted` from a server; streak freezes are granted and
/// pauses planned (format version 2); newer-version lines are scattered
/// through. Users, attempt ids, questions and skills include strings that are
/// canonically equivalent but not the same scalars ("é" and "e" + U+0301), which
/// must stay apart, and skills whose code point order differs from Swift's `<`.
struct RandomReportLog {
    /// Knobs, drawn from the seed unless given.
    struct Options {
        /// Learners who act (at least 1).
        var learners: Int
        /// Learners who only receive grants.
        var grantOnly: Int
        /// Question counts up to a million: the day's exact mean-score fraction
        /// overflows and falls back to a double, whose sum depends on the order.
        var bigQuestionCounts: Bool
        /// Mean seconds between events (small: many events a day).
        var meanGap: Int

        static func random(using rng: inout SplitMix64) -> Options {
            Options(learners: Int.random(in: 1...9, using: &rng), grantOnly: Int.random(in: 0...2, using: &rng),
                    bigQuestionCounts: Int.random(in: 0..<4, using: &rng) == 0,
                    meanGap: [60, 600, 3_600, 4 * 3_600].randomElement(using: &rng) ?? 600)
        }
    }

    static let offsets = [0, 540, -480, 330, 345, 180, -300, 60, 120, 840, -720, 600, -210]
    static let skills: [String?] = ["inference", "vocab", "Vocab", "caf\u{E9}", "cafe\u{301}", "\u{1F600}-emoji",
                                    "\u{FF21}-wide", "z", nil, nil]
    static let questionNames = ["q1", "q2", "q3", "q\u{E9}", "qe\u{301}", "q4"]

    private struct Open { var id: String; var questions: Int }
    private struct Learner {
        var name: String
        var offset: Int
        var open: [Open] = []
        var ended: [String] = []
        var counter = 0
    }

    private var rng: SplitMix64
    private let options: Options
    private var learners: [Learner]
    private var grantees: [String]
    private var records: [Record] = []
    private var clock: Int64

    private init(seed: UInt64, options: Options?) {
        rng = SplitMix64(seed: seed)
        let options = options ?? Options.random(using: &rng)
        self.options = options
        let names = ["u-1", "u-2", "u-\u{E9}", "u-e\u{301}", "U-1", "u-10", "u-\u{1F600}", "u-3", "u-4", "u-5", "u-6"]
        learners = (0..<max(1, options.learners)).map { i in
            Learner(name: i < names.count ? names[i] : "u-x\(i)", offset: Self.offsets[i % Self.offsets.count])
        }
        grantees = (0..<options.grantOnly).map { "server-only-\($0)" }
        clock = 1_759_276_800 + Int64(seed % 86_400)   // 2025-10-01, some time of day
    }

    /// A log of `count` lines (v1 events and newer-version lines).
    static func make(seed: UInt64, count: Int, options: Options? = nil) -> [Record] {
        var log = RandomReportLog(seed: seed, options: options)
        for _ in 0..<count { log.step() }
        return log.records
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }

    /// A local timestamp at `instant` (seconds since 1970) in the zone `offset` (minutes).
    private mutating func timestamp(_ instant: Int64, offset: Int) -> Timestamp {
        let local = instant + Int64(offset * 60)
        let secondOfDay = Int(((local % 86_400) + 86_400) % 86_400)
        let day = Day(ordinal: Int((local - Int64(secondOfDay)) / 86_400))
        let fraction = chance(25) ? "." + String(Int.random(in: 100...999, using: &rng)) : ""
        let sign = offset < 0 ? "-" : "+"
        let zone = offset == 0 && chance(50) ? "Z" : "\(sign)\(pad(abs(offset) / 60)):\(pad(abs(offset) % 60))"
        let text = "\(day)T\(pad(secondOfDay / 3600)):\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60))\(fraction)\(zone)"
        do { return try Timestamp(parsing: text) } catch { fatalError("generator made a bad timestamp \(text)") }
    }

    private func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// The learner's `at`: the clock, sometimes hours or days late-synced, sometimes
    /// moved to just before local midnight (an attempt that will cross it).
    private mutating func at(for k: Int) -> Timestamp {
        clock += Int64(Int.random(in: 0...(2 * options.meanGap), using: &rng))
        if chance(4) { learners[k].offset = pick(Self.offsets) }           // travel
        var instant = clock
        if chance(4) { instant -= Int64(Int.random(in: 60...250_000, using: &rng)) }   // late sync
        if chance(3) {
            // 23:5x local: jump the clock there so the next events fall after midnight.
            let local = clock + Int64(learners[k].offset * 60)
            let midnight = local - ((local % 86_400) + 86_400) % 86_400 + 86_400
            let target = midnight - Int64(Int.random(in: 1...600, using: &rng)) - Int64(learners[k].offset * 60)
            if target > clock { clock = target }
            instant = clock
        }
        return timestamp(instant, offset: learners[k].offset)
    }

    private mutating func step() {
        let seq = records.count + 1
        if chance(1) {
            let user: String? = chance(70) ? pick(learners).name : nil
            records.append(.newer(NewerVersionLine(version: Int.random(in: 3...9, using: &rng), seq: seq, id: "e-\(seq)",
                                                   user: user, prev: Envelope.genesis, type: chance(50) ? "quiz.paused" : nil)))
            return
        }
        if !grantees.isEmpty, chance(6) {
            let user = pick(grantees)
            let at = timestamp(clock, offset: 0)
            records.append(.event(Envelope(seq: seq, id: "e-\(seq)", at: at, user: user,
                                        event: .hintsGranted(HintsGranted(amount: 3, reason: .seed)), prev: Envelope.genesis)))
            return
        }
        let k = Int.random(in: 0..<learners.count, using: &rng)
        let at = self.at(for: k)
        let event = self.event(for: k, on: at.day)
        records.append(.event(Envelope(seq: seq, id: "e-\(seq)", at: at, user: learners[k].name,
                                    device: chance(50) ? "phone" : nil, event: event, prev: Envelope.genesis)))
    }

    /// An attempt id the learner names: mostly an open one; sometimes an ended
    /// one, an unknown one, or one that differs from a known one only in form.
    private mutating func target(_ k: Int, openly percent: Int) -> (id: String, questions: Int) {
        let l = learners[k]
        if chance(percent), !l.open.isEmpty { let o = pick(l.open); return (o.id, o.questions) }
        if chance(50), !l.ended.isEmpty { return (pick(l.ended), 3) }
        if chance(30) { return ("a-\(l.counter + 1)", 3) }      // started later: unknown now
        return (pick(["ghost", "a-\u{E9}", "a-e\u{301}"]), 3)
    }

    private mutating func questions() -> Int {
        if options.bigQuestionCounts && chance(70) { return Int.random(in: 1...1_000_000, using: &rng) }
        return Int.random(in: 1...6, using: &rng)
    }

    private mutating func event(for k: Int, on day: Day) -> Event {
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<15:
            var id: String
            let l = learners[k]
            if chance(6), let old = (l.ended + l.open.map(\.id)).first {
                id = old                                                    // duplicate_attempt
            } else if chance(3) {
                id = pick(["a-\u{E9}", "a-e\u{301}"])                       // may or may not be new
            } else {
                learners[k].counter += 1
                id = "a-\(learners[k].counter)"
            }
            let n = questions()
            if !l.ended.contains(where: { $0.utf8.elementsEqual(id.utf8) }),
               !l.open.contains(where: { $0.id.utf8.elementsEqual(id.utf8) }) {
                learners[k].open.append(Open(id: id, questions: n))
            }
            return .quizStarted(QuizStarted(attempt: id, quiz: pick(["daily-a", "daily-b", "x", "y"]), questions: n,
                                            daily: chance(60) ? true : (chance(50) ? false : nil),
                                            category: pick(["reading", "math", nil]), diagnostic: chance(10) ? true : nil))
        case 15..<50:
            let (id, n) = target(k, openly: 88)
            let question = chance(80) ? "q\(Int.random(in: 1...min(n, 8), using: &rng))" : pick(Self.questionNames)
            return .answerSelected(AnswerSelected(attempt: id, question: question, choice: 1, correct: chance(60),
                                                  skill: pick(Self.skills)))
        case 50..<57:
            let (id, _) = target(k, openly: 85)
            return .hintUsed(HintUsed(attempt: id, question: pick(Self.questionNames), hint: chance(50) ? .fiftyFifty : .reveal))
        case 57..<71:
            let (id, _) = target(k, openly: 90)
            if let i = learners[k].open.firstIndex(where: { $0.id.utf8.elementsEqual(id.utf8) }) {
                learners[k].open.remove(at: i)
                learners[k].ended.append(id)
            }
            return chance(78) ? .quizFinished(AttemptEnded(attempt: id)) : .quizAbandoned(AttemptEnded(attempt: id))
        case 71..<80:
            let played = PuzzlePlayed(puzzle: pick(["p-1", "p-2"]), encoding: "caesar",
                                      seconds: chance(80) ? Seconds(literal: "12.5") : nil)
            return played.seconds != nil && chance(70) ? .puzzleCompleted(played) : .puzzleFailed(played)
        case 80..<90:
            let answers = (0..<Int.random(in: 0...4, using: &rng)).map { i in
                SubmissionMade.Answer(question: "s\(i)", choice: 0, correct: chance(55), skill: pick(Self.skills))
            }
            return .submissionMade(SubmissionMade(content: pick(["l-1", "passage-1"]), kind: chance(50) ? .lesson : .passage,
                                                  category: "reading", answers: answers))
        case 90..<94:
            return .hintsGranted(HintsGranted(amount: 2, reason: .reward))
        case 94..<96:
            return .streakFreezeGranted(StreakFreezeGranted(amount: Int.random(in: 1...3, using: &rng), reason: .reward))
        case 96..<98:
            // Planned from the event's own day (never backdated), 1 to 10 days.
            let from = day.adding(days: Int.random(in: 0...3, using: &rng))
            return .streakPaused(StreakPaused(from: from, to: from.adding(days: Int.random(in: 0...9, using: &rng))))
        default:
            return .progressReset(ProgressReset(scope: pick(ProgressReset.Scope.allCases)))
        }
    }
}
