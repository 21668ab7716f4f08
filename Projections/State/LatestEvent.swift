import Events

/// The rule for "today" when no day is given: the day of the user's kept v1
/// event with the latest instant (`at` as an absolute time), ties going to the
/// later in log order. The day is the one the event counts on (its attempt's
/// start day for quiz events: "this holds everywhere"), so an answer at 00:05
/// to a quiz started at 23:55 keeps D on the start day and the quiz resumable.
///
/// A late-synced event from an earlier day does not move the day back, and a
/// learner who flew from +09:00 to -08:00 gets the local date they are in now.
package struct LatestEvent: Sendable, Hashable {
    /// The latest instant seen, nil before any event.
    package private(set) var instant: Instant?
    /// The day that event counts on (its attempt's start day for quiz events).
    package private(set) var day: Day?
    /// Its `seq`.
    package private(set) var seq: Int?

    /// Nothing seen yet.
    package init() {}

    /// Folds one kept v1 event, as the attempts book read it, in log order.
    package mutating func reduce(_ step: Step) {
        let envelope = step.envelope
        if let instant, envelope.at.instant < instant { return }
        instant = envelope.at.instant
        day = step.day
        seq = envelope.seq
    }
}
