import Events
import Foundation
import Projections
import Simulation
import Testing

/// The generator behind `demo` and the benchmarks, through its public API.
@Suite("demo: the simulated learners")
struct DemoSimulationTests {
    static let defaults = Array(DemoLog())

    @Test("the same options give the same events; a learner does not depend on how many others there are")
    func deterministic() {
        let small = Array(DemoLog(.init(users: 4, days: 5, seed: 9)))
        #expect(small == Array(DemoLog(.init(users: 4, days: 5, seed: 9))))
        #expect(small != Array(DemoLog(.init(users: 4, days: 5, seed: 10))))
        let larger = Array(DemoLog(.init(users: 9, days: 5, seed: 9)))
        let firstFour = Set(["u-001", "u-002", "u-003", "u-004"])
        #expect(small == larger.filter { firstFour.contains($0.user) })
    }

    @Test("--users and --days scale the log", arguments: [(4, 4), (8, 4), (4, 8)])
    func scales(users: Int, days: Int) {
        let count = DemoLog(.init(users: users, days: days, seed: 1)).reduce(0) { n, _ in n + 1 }
        let base = DemoLog(.init(users: 4, days: 4, seed: 1)).reduce(0) { n, _ in n + 1 }
        #expect(base > 150)
        if users * days > 16 { #expect(Double(count) > 1.5 * Double(base)) }
    }

    @Test("ids come from the seed: learner and counter, unique; every event has a device")
    func ids() {
        let ids = Self.defaults.compactMap(\.id)
        #expect(ids.count == Self.defaults.count)
        #expect(Set(ids).count == ids.count)
        // Freezes and pauses count apart, so the other events keep the ids they had before version 2.
        #expect(ids.allSatisfy { $0.wholeMatch(of: /u-\d{3}:(\d+|freeze-\d+|pause-\d+)/) != nil })
        #expect(Self.defaults.allSatisfy { $0.device != nil })
    }

    @Test("every timestamp reads back as written: the same instant, offset and day")
    func timestamps() throws {
        for e in Self.defaults {
            let parsed = try Timestamp(parsing: e.at.text)
            #expect(parsed == e.at, "\(e.at.text)")
        }
        #expect(Self.defaults.contains { $0.at.text.hasSuffix("Z") })
        #expect(Self.defaults.contains { $0.at.text.contains(".") && $0.at.text.hasSuffix("+05:45") })
    }

    @Test("learners live in several zones, cross a DST change, and one travels")
    func zones() {
        let offsets = Set(Self.defaults.map(\.at.offsetMinutes))
        #expect(offsets.count >= 6)
        let showcase = Set(Self.defaults.filter { $0.user == "u-001" && $0.device != "server" }.map(\.at.offsetMinutes))
        #expect(showcase.isSuperset(of: [180, -420]), "u-001 flies from +03:00 to Los Angeles: \(showcase)")
        // Someone's phone moves back one hour at the end of DST while they stay home.
        var byUser: [String: Set<Int>] = [:]
        for e in Self.defaults where e.device?.hasPrefix("phone") == true { byUser[e.user, default: []].insert(e.at.offsetMinutes) }
        #expect(byUser.values.contains { set in set.contains { set.contains($0 - 60) } && set.count == 2 })
    }

    @Test("the day's quizzes: retried, abandoned, resumed hours later, and started just before midnight")
    func quizzes() {
        var starts: [String: (Timestamp, Bool)] = [:]
        var dailyPerUserDay: [String: Int] = [:]
        var abandoned = 0, resumed = 0, overMidnight = 0, diagnostics = 0, categories = 0
        var lastAnswer: [String: Timestamp] = [:]
        for e in Self.defaults {
            let key = { (a: String) in e.user + "/" + a }
            switch e.event {
            case .quizStarted(let s):
                starts[key(s.attempt)] = (e.at, s.isDaily)
                if s.isDaily { dailyPerUserDay[e.user + "/" + e.at.day.description, default: 0] += 1 }
                if s.isDiagnostic { diagnostics += 1 }
                if s.difficulty != nil { categories += 1 }
            case .answerSelected(let a):
                if let previous = lastAnswer[key(a.attempt)], previous.instant.duration(to: e.at.instant).nanoseconds > 3_600_000_000_000 {
                    resumed += 1
                }
                lastAnswer[key(a.attempt)] = e.at
            case .quizFinished(let end):
                if let (start, _) = starts[key(end.attempt)], start.day < e.at.day { overMidnight += 1 }
            case .quizAbandoned:
                abandoned += 1
            default: break
            }
        }
        #expect(dailyPerUserDay.values.contains { $0 >= 2 }, "a retried daily quiz")
        #expect(abandoned > 10)
        #expect(resumed > 5)
        #expect(overMidnight >= 1)
        #expect(diagnostics > 5)
        #expect(categories > 50)
    }

    @Test("hints granted and used, puzzles with times, submissions with skills, a reset, late events")
    func theRest() {
        var granted = Set<String>(), usedKinds = Set<String>(), puzzlesWithout = 0, puzzlesWith = 0, solved = 0
        var skills = Set<String>(), emptyLessons = 0, resets = 0, late = 0
        var latest: [String: Instant] = [:]
        for e in Self.defaults {
            if let l = latest[e.user], e.at.instant < l { late += 1 } else { latest[e.user] = e.at.instant }
            switch e.event {
            case .hintsGranted(let g): granted.insert(g.reason.rawValue)
            case .hintUsed(let h): usedKinds.insert(h.hint.rawValue)
            case .puzzleCompleted: solved += 1
            case .puzzleFailed(let p): if p.seconds == nil { puzzlesWithout += 1 } else { puzzlesWith += 1 }
            case .submissionMade(let s):
                skills.formUnion(s.answers.compactMap(\.skill))
                if s.answers.isEmpty { emptyLessons += 1 }
            case .progressReset: resets += 1
            default: break
            }
        }
        #expect(granted.isSuperset(of: ["seed", "reward"]))
        #expect(usedKinds == ["fifty_fifty", "reveal"])
        #expect(solved > 50 && puzzlesWith > 5 && puzzlesWithout > 5)
        #expect(skills.count >= 8)
        #expect(emptyLessons >= 1)
        #expect(resets >= 1)
        #expect(late > 10)
    }

    @Test("streak freezes: one a reward every 7 active days, never over 2 held; some learners pause for their trip")
    func freezesAndPauses() {
        var finishedDays: [String: Set<Day>] = [:]
        var attemptsDaily: [String: (Day, Bool)] = [:]
        var grants = 0, pauses = 0
        var grantsOf: [String: Int] = [:]
        var records: [Record] = []
        for (k, e) in Self.defaults.enumerated() {
            records.append(.event(e.sealed(seq: k + 1, id: e.id ?? "", prev: Envelope.genesis)))
            switch e.event {
            case .quizStarted(let s):
                if attemptsDaily[e.user + "/" + s.attempt] == nil { attemptsDaily[e.user + "/" + s.attempt] = (e.at.day, s.isDaily) }
            case .quizFinished(let f):
                // A daily attempt's start day; a finish whose start a glitch lost, its own day.
                let (day, daily) = attemptsDaily[e.user + "/" + f.attempt] ?? (e.at.day, true)
                if daily { finishedDays[e.user, default: []].insert(day) }
            case .streakFreezeGranted(let g):
                grants += 1
                grantsOf[e.user, default: 0] += 1
                #expect(g.amount == 1 && g.reason == .reward)
                // A reward for every 7 active days (one day of slack for a glitch that reused an attempt id).
                #expect(finishedDays[e.user, default: []].count + 1 >= 7 * (grantsOf[e.user] ?? 0), "\(e.id ?? "")")
            case .streakPaused(let p):
                pauses += 1
                #expect(p.from == e.at.day.adding(days: 1) && p.to >= p.from && p.to.ordinal - p.from.ordinal < 6, "\(e.id ?? "")")
            default: break
            }
        }
        #expect(grants > 20 && pauses >= 2, "\(grants) grants, \(pauses) pauses")
        var frozen = 0, paused = 0
        for user in Set(Self.defaults.map(\.user)) {
            let state = LearnerState(folding: records, options: StateOptions(user: user))
            #expect(!state.anomalies.contains { $0.kind == .freezeOverflow }, "\(user)")
            frozen += state.streak.freezes.used
            paused += state.streak.runs.reduce(0) { $0 + $1.paused }
        }
        #expect(frozen > 10 && paused > 0, "\(frozen) frozen days, \(paused) paused days")
    }
}
