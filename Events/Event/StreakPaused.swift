/// `streak.paused` (format version 2): the learner paused their streak for
/// the days `from` to `to`, both included (a holiday, an illness). A paused
/// day without activity neither breaks the streak nor adds to it.
public struct StreakPaused: Sendable, Hashable {
    /// The first paused day (a learner day).
    public var from: Day
    /// The last paused day: on or after `from`, at most ``longest`` days in all.
    public var to: Day
    /// Members the format does not define, kept as written.
    public var extra: [JSONMember]

    /// The most days one pause covers: 90.
    public static let longest = 90

    /// Makes a `streak.paused` payload.
    public init(from: Day, to: Day, extra: [JSONMember] = []) {
        self.from = from; self.to = to; self.extra = extra
    }

    /// Whether `day` is one of the paused days.
    public func contains(_ day: Day) -> Bool { from <= day && day <= to }
}

extension StreakPaused: Payload {
    /// `data`'s members, in the format's order.
    package enum Member: String, PayloadMember { case from, to }
    package static var eventType: EventType { .streakPaused }

    package init(_ d: DataReader<Member>) throws(EventError) {
        self.init(from: try d.day(.from), to: try d.day(.to), extra: d.extra)
    }

    package func write<W: MemberWriter>(to w: inout W) where W.Member == Member {
        w.day(.from, from); w.day(.to, to); w.extra(extra)
    }

    /// The pause's rules between its members and its event's day
    /// (events-v2.md): `from <= to` and at most 90 days (else `to` is named),
    /// and `from` on or after `day`, the day of the event's own `at` (a pause
    /// is planned ahead or taken today, never backdated; else `from` is named).
    package static let dayRule: DayRule<StreakPaused>? = DayRule { pause, day in
        let (from, to) = (pause.from, pause.to)
        if to < from { return (.to, "must be on or after from (\(from)); got \(to)") }
        if to.ordinal - from.ordinal >= StreakPaused.longest {
            return (.to, "must be at most \(StreakPaused.longest - 1) days after from (\(from)): a pause covers at most \(StreakPaused.longest) days; got \(to)")
        }
        if from < day { return (.from, "must be on or after the day of the event's at (\(day)): a pause is never backdated; got \(from)") }
        return nil
    }
}
