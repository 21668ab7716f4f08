import Events

/// A set of calendar days kept sorted, for streaks: insert, look up, and cut
/// into runs of consecutive days.
package struct ActiveDays: Sendable, Hashable {
    /// The days, ascending, without repeats.
    package private(set) var days: [Day] = []

    /// An empty set.
    package init() {}

    /// A set of the given days (any order, repeats allowed).
    package init<S: Sequence<Day>>(_ days: S) {
        self.days = Array(Set(days)).sorted()
    }

    /// Whether there is no day.
    package var isEmpty: Bool { days.isEmpty }

    /// The number of days.
    package var count: Int { days.count }

    /// How many days are on or before `day`.
    package func count(through day: Day) -> Int { index(of: day.adding(days: 1)) }

    /// Whether `day` is in the set.
    package func contains(_ day: Day) -> Bool {
        let i = index(of: day)
        return i < days.count && days[i] == day
    }

    /// Adds a day; returns false when it was already there.
    @discardableResult
    package mutating func insert(_ day: Day) -> Bool {
        // Most days come after the last or on it (a learner's days in log
        // order); an empty set takes the first (no generic insert at 0).
        guard let last = days.last else { days.append(day); return true }
        if last < day { days.append(day); return true }
        if last == day { return false }
        let i = index(of: day)
        if i < days.count, days[i] == day { return false }
        days.insert(day, at: i)
        return true
    }

    /// The union of two sets.
    package func union(_ other: ActiveDays) -> ActiveDays {
        if other.isEmpty { return self }
        if isEmpty { return other }
        var merged: [Day] = []
        merged.reserveCapacity(days.count + other.days.count)
        var i = 0, j = 0
        while i < days.count || j < other.days.count {
            let next: Day
            if j == other.days.count || (i < days.count && days[i] < other.days[j]) {
                next = days[i]; i += 1
            } else if i == days.count || other.days[j] < days[i] {
                next = other.days[j]; j += 1
            } else {
                next = days[i]; i += 1; j += 1
            }
            merged.append(next)
        }
        var result = ActiveDays()
        result.days = merged
        return result
    }

    /// The run of consecutive days containing `day` (which must be in the set), as its first and last day.
    package func run(containing day: Day) -> (start: Day, end: Day)? {
        var i = index(of: day)
        guard i < days.count, days[i] == day else { return nil }
        var j = i
        while i > 0, days[i - 1].adding(days: 1) == days[i] { i -= 1 }
        while j + 1 < days.count, days[j].adding(days: 1) == days[j + 1] { j += 1 }
        return (days[i], days[j])
    }

    /// The first index whose day is not before `day`.
    private func index(of day: Day) -> Int {
        var lo = 0, hi = days.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if days[mid] < day { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
