import Events
@testable import Projections
import Simulation
import Testing

/// `streak_7` against the streak's own `runs` (projections.md: 7 active days
/// of one run, frozen and paused days neither counting nor breaking it), for
/// every learner of seeded demo logs: freezes, pauses, resets of every scope
/// and late-recorded events. The 7th active day is read off the printed run:
/// its calendar days from `start`, less its frozen days (listed) and its
/// paused days (the walk's), counted one by one.
@Suite struct Streak7RunsTests {
    /// The demo's events as envelopes, in recording order (`seq` from 1).
    static func log(seed: UInt64) -> [Envelope] {
        DemoLog(.init(users: 24, days: 75, seed: seed)).enumerated().map { k, e in
            Envelope(seq: k + 1, id: e.id ?? "e-\(k + 1)", at: e.at, user: e.user, device: e.device, event: e.event, prev: Envelope.genesis)
        }
    }

    /// The 7th active day of the first run with 7, as the state's runs show it; nil without one.
    static func seventhDay(_ state: LearnerState, walk: StreakWalk?) -> Day? {
        guard let k = state.streak.runs.firstIndex(where: { $0.days >= 7 }), let walk else { return nil }
        let run = state.streak.runs[k]
        let paused = Set(walk.runs[k].pausedDays)
        #expect(walk.runs[k].run == run)
        var active: [Day] = []
        var day = run.start
        while day <= run.end {
            if !run.frozen.contains(day) && !paused.contains(day) { active.append(day) }
            day = day.adding(days: 1)
        }
        // Every calendar day of a run is active, frozen or paused.
        #expect(active.count == run.days, "run \(run)")
        return active.count >= 7 ? active[6] : nil
    }

    /// Counts, per mode, of learners whose `streak_7` was checked against a run.
    struct Seen { var earned = 0, withQuizReset = 0, withGrace = 0, without = 0 }

    @Test("streak_7 is the 7th active day of the first run with 7 that state's runs print, in both modes")
    func streak7MatchesRuns() {
        var seen: [StreakMode: Seen] = [:]
        for seed: UInt64 in [1, 2, 3, 7] {
            let envelopes = Self.log(seed: seed)
            var users: [String] = []
            for e in envelopes where !users.contains(e.user) { users.append(e.user) }
            for mode in StreakMode.allCases {
                for user in users {
                    var projector = LearnerProjector(options: StateOptions(user: user, streakOn: mode))
                    for e in envelopes { projector.apply(e) }
                    let state = projector.state()
                    let achieved = state.achievements.filter { $0.id == .streak7 }
                    #expect(achieved.count <= 1)
                    let expected = Self.seventhDay(state, walk: projector.streakWalk())
                    #expect(achieved.first?.day == expected, "seed \(seed) \(mode) \(user): runs \(state.streak.runs)")
                    guard expected != nil else { seen[mode, default: Seen()].without += 1; continue }
                    seen[mode, default: Seen()].earned += 1
                    // A quizzes or all reset clears the streak's quiz days: streak_7 is judged afresh (issue 32's case).
                    if envelopes.contains(where: {
                        guard $0.user == user, case .progressReset(let r) = $0.event else { return false }
                        return r.scope.covers(.quizzes)
                    }) { seen[mode, default: Seen()].withQuizReset += 1 }
                    if state.streak.freezes.used > 0 || state.streak.runs.contains(where: { $0.paused > 0 }) {
                        seen[mode, default: Seen()].withGrace += 1
                    }
                }
            }
        }
        // In each mode, the logs hold what the check is about: learners who earned
        // streak_7 with a quizzes reset in their log, with frozen or paused days,
        // and learners without it.
        for mode in StreakMode.allCases {
            let s = seen[mode] ?? Seen()
            #expect(s.earned > 0 && s.withQuizReset > 0 && s.withGrace > 0 && s.without > 0, "\(mode): \(s)")
        }
    }
}
