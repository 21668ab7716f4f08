import Events

/// The app's streak freezes and holidays (format version 2): a freeze as a
/// reward every 7 active days while the learner holds fewer than 2, and a
/// streak pause planned the day before some learners' trips.
///
/// Draws come from a stream of their own, and the events get ids of their own
/// (`u-007:freeze-1`, `u-007:pause-1`), so every other event of the demo is
/// what it was before these were added: same ids, same times, same content.
struct StreakKeeping: Sendable {
    /// Daily quizzes finished before the day being simulated.
    var finishedBefore = 0
    /// Active days so far (days with a finished daily quiz).
    var activeDays = 0
    /// Freezes the app believes the learner holds: it grants one only below 2.
    var held = 0
    /// Whether the app believes a streak is going on.
    var alive = false
    /// The simulated days of the pause the learner took, if any.
    var paused: ClosedRange<Int>?
    /// Freezes granted and pauses taken, for their ids.
    var grants = 0, pauses = 0
}

extension Learner {
    /// Called after ``live(dayIndex:day:seed:into:)``: counts the day as the
    /// app's server does at its end (spending a believed freeze on a missed
    /// day of a streak), grants a freeze on every 7th active day, and plans
    /// the pause of a coming trip.
    mutating func keepStreak(dayIndex: Int, day: Day, seed: UInt64, into sink: inout Sink) {
        guard dayIndex >= joinDay, dayIndex < leaveDay else { return }
        var rng = SeededGenerator(seed: seed, streams: UInt64(index), UInt64(dayIndex), 0x5354_5245_414B)  // "STREAK"
        let active = dailyFinished > streak.finishedBefore
        streak.finishedBefore = dailyFinished
        if active {
            streak.activeDays += 1
            streak.alive = true
        } else if streak.paused?.contains(dayIndex) == true {
            // A paused day keeps the streak.
        } else if streak.alive, streak.held > 0 {
            streak.held -= 1
        } else {
            streak.alive = false
        }
        let offset = zone(on: dayIndex).offsetMinutes(on: day)
        // Late in the learner's evening, stamped in their zone so the event is on their day.
        let evening = Instant.midnight(of: day, offsetMinutes: offset).advanced(seconds: 23 * 3600 + 50 * 60 + rng.int(in: 0...300))
        if active, streak.activeDays % 7 == 0, streak.held < 2 {
            streak.held += 1
            streak.grants += 1
            record(.streakFreezeGranted(StreakFreezeGranted(amount: 1, reason: .reward)), id: "freeze-\(streak.grants)",
                   at: evening, offset: offset, device: "server", into: &sink)
        }
        if let trip, trip.first == dayIndex + 1, streak.paused == nil, showcase || rng.chance(0.6) {
            // Planned the evening before: the trip's days, from tomorrow.
            streak.paused = trip.first...(trip.first + trip.days - 1)
            streak.pauses += 1
            record(.streakPaused(StreakPaused(from: day.adding(days: 1), to: day.adding(days: trip.days))), id: "pause-\(streak.pauses)",
                   at: evening.advanced(seconds: -3600), offset: offset, device: "phone-\(id)", into: &sink)
        }
    }

    /// Records one of these events at `at` in the zone `offset`, with an id of its own.
    private func record(_ event: Event, id suffix: String, at instant: Instant, offset: Int, device: String, into sink: inout Sink) {
        let at = Timestamp(instant: instant, offsetMinutes: offset, fractionDigits: 0, zulu: false)
        sink.record(NewEvent(id: "\(id):\(suffix)", at: at, user: id, device: device, event: event), at: instant)
    }
}
