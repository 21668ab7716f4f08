import Events

/// What keeps a learner's streak alive across days without activity, as the
/// log holds it: their `streak.freeze_granted` and `streak.paused` events
/// (format version 2), in log order. Never reset (a freeze may have been
/// bought); the day walk (``StreakWalk``) reads them with the active days.
package struct StreakGrace: Sendable, Hashable {
    /// A `streak.freeze_granted`: on its own day, its amount, its seq.
    package struct Grant: Sendable, Hashable {
        package var day: Day
        package var amount: Int
        package var seq: Int
        package init(day: Day, amount: Int, seq: Int) { self.day = day; self.amount = amount; self.seq = seq }
    }

    /// A `streak.paused`: the days `from` ... `to`, and its seq.
    package struct Pause: Sendable, Hashable {
        package var from: Day
        package var to: Day
        package var seq: Int
        package init(from: Day, to: Day, seq: Int) { self.from = from; self.to = to; self.seq = seq }
    }

    /// The grants, in log order.
    package private(set) var grants: [Grant] = []
    /// The pauses, in log order.
    package private(set) var pauses: [Pause] = []
    /// The last day with a grant; nil without one (kept as grants are added:
    /// `explain` reads it after every event).
    package private(set) var lastGrantDay: Day? = nil

    /// No grant and no pause.
    package init() {}

    /// Whether there is no grant and no pause (a version-1 log).
    package var isEmpty: Bool { grants.isEmpty && pauses.isEmpty }

    /// Adds the grant or pause `event` records on `day` (its own day) at `seq`;
    /// false for any other event.
    @discardableResult
    package mutating func add(_ event: Event, on day: Day, seq: Int) -> Bool {
        switch event {
        case .streakFreezeGranted(let g):
            grants.append(Grant(day: day, amount: g.amount, seq: seq))
            lastGrantDay = max(lastGrantDay ?? day, day)
        case .streakPaused(let p): pauses.append(Pause(from: p.from, to: p.to, seq: seq))
        default: return false
        }
        return true
    }

    /// Folds one step (the grant or pause it is, if any).
    package mutating func reduce(_ step: Step) {
        add(step.envelope.event, on: step.day, seq: step.seq)
    }
}
