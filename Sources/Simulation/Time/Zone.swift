import Events

/// A learner's time zone: a standard UTC offset and, for some, a daylight-saving rule.
///
/// The offset of a whole local day is used for every event a session of that
/// day writes (the switch at 02:00 is not modelled: a session keeps its offset).
struct Zone: Sendable, Hashable {
    /// When daylight-saving time is in force.
    enum DaylightRule: Sendable, Hashable {
        /// United States: second Sunday of March to first Sunday of November.
        case unitedStates
        /// European Union: last Sunday of March to last Sunday of October.
        case europe
        /// South-eastern Australia: first Sunday of October to first Sunday of April.
        case australia
    }

    /// A city-like name, for the docs and the tests.
    let name: String
    /// The standard offset, in minutes.
    let standardMinutes: Int
    /// The daylight-saving rule (one hour ahead), or nil.
    let daylight: DaylightRule?

    /// The offset in force on local day `day`.
    func offsetMinutes(on day: Day) -> Int {
        guard let daylight, daylight.isInForce(on: day) else { return standardMinutes }
        return standardMinutes + 60
    }

    static let riyadh = Zone(name: "Riyadh", standardMinutes: 180, daylight: nil)
    static let kolkata = Zone(name: "Kolkata", standardMinutes: 330, daylight: nil)
    static let kathmandu = Zone(name: "Kathmandu", standardMinutes: 345, daylight: nil)
    static let jakarta = Zone(name: "Jakarta", standardMinutes: 420, daylight: nil)
    static let tokyo = Zone(name: "Tokyo", standardMinutes: 540, daylight: nil)
    static let sydney = Zone(name: "Sydney", standardMinutes: 600, daylight: .australia)
    static let london = Zone(name: "London", standardMinutes: 0, daylight: .europe)
    static let berlin = Zone(name: "Berlin", standardMinutes: 60, daylight: .europe)
    static let saoPaulo = Zone(name: "Sao Paulo", standardMinutes: -180, daylight: nil)
    static let newYork = Zone(name: "New York", standardMinutes: -300, daylight: .unitedStates)
    static let losAngeles = Zone(name: "Los Angeles", standardMinutes: -480, daylight: .unitedStates)

    /// Home zones with how often learners live there.
    static let homes: [(zone: Zone, weight: Int)] = [
        (.riyadh, 5), (.berlin, 4), (.newYork, 4), (.losAngeles, 3), (.london, 3),
        (.kolkata, 3), (.tokyo, 2), (.jakarta, 2), (.saoPaulo, 2), (.sydney, 2), (.kathmandu, 1),
    ]
}

extension Zone.DaylightRule {
    /// Whether daylight-saving time is in force on local day `day` (from the switch day on).
    func isInForce(on day: Day) -> Bool {
        let year = day.components.year
        switch self {
        case .unitedStates:
            return day >= Day.nthSunday(2, month: 3, year: year) && day < Day.nthSunday(1, month: 11, year: year)
        case .europe:
            return day >= Day.lastSunday(month: 3, year: year) && day < Day.lastSunday(month: 10, year: year)
        case .australia:
            return day < Day.nthSunday(1, month: 4, year: year) || day >= Day.nthSunday(1, month: 10, year: year)
        }
    }
}

extension Day {
    /// 0 for Sunday ... 6 for Saturday (1970-01-01 was a Thursday).
    var weekday: Int { ((ordinal + 4) % 7 + 7) % 7 }

    /// The `n`th Sunday (1-based) of a month.
    static func nthSunday(_ n: Int, month: Int, year: Int) -> Day {
        let first = Day(ordinal: Day.ordinal(year: year, month: month, day: 1))
        return first.adding(days: (7 - first.weekday) % 7 + 7 * (n - 1))
    }

    /// The last Sunday of a month.
    static func lastSunday(month: Int, year: Int) -> Day {
        let last = Day(ordinal: Day.ordinal(year: year, month: month, day: Day.daysIn(month: month, year: year)))
        return last.adding(days: -last.weekday)
    }
}
