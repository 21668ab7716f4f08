import Events

/// Why a member of `state --json` has its value: the value, the rule in one
/// sentence, and the learner's events behind it (`progress-ledger explain`).
///
/// The events come from the projections themselves, not from a second copy
/// of their rules: the learner's records are folded one at a time by the
/// same ``LearnerProjector`` that `state` uses, the state at D is taken after
/// each, and an event is behind the value when it changed one of the
/// members that witness it (`ExplainedPath.witnesses`: for `hints.balance`,
/// the grants and uses; for `stats.accuracy`, the answers counted; for the
/// streaks, the state's `streak.runs`, keeping the events on the days of the
/// run the value counts: the finished daily attempt that made each day of the
/// current or longest run active). Day, type and summary are the audit's
/// (``AuditTimeline``).
public struct Explanation: Sendable, Hashable {
    /// One event behind the value.
    public struct Event: Sendable, Hashable {
        /// The line's seq.
        public var seq: Int
        /// The learner day it is grouped under (an attempt's start day), as in `audit`.
        public var day: Day?
        /// Its type.
        public var type: String?
        /// What happened, in one line, as in `audit`.
        public var summary: String
    }

    /// The member's path, e.g. `streak.current`.
    public var path: String
    /// Its value, as `state --json` prints it.
    public var value: JSONValue
    /// The rule that produced it, in one sentence.
    public var rule: String
    /// The events behind it, in log order.
    public var events: [Event]

    /// Explains `path` of the state of `options.user` from `records` (the
    /// user's records in log order, as `state` reads them). Throws
    /// ``UnknownPath`` when the state has no member at `path`.
    public static func explain(_ path: String, records: [Record], options: StateOptions) throws(UnknownPath) -> Explanation {
        let explained = ExplainedPath(path)
        var full = LearnerProjector(options: options)
        full.apply(contentsOf: records)
        let day = options.day ?? full.latestDay
        let final = try explained.members(of: full.state(day: day))
        var projector = LearnerProjector(options: options)
        var timeline = AuditTimeline(user: options.user)
        var previous = try explained.members(of: projector.state(day: day))
        var events: [Event] = []
        var graceEntries: [Int: AuditEntry] = [:]
        for record in records {
            projector.apply(record)
            let entry = timeline.add(record)
            if let entry, case .event(let e) = record, [.streakFreezeGranted, .streakPaused].contains(e.event.type) {
                graceEntries[entry.seq] = entry
            }
            let now = try explained.members(of: projector.state(day: day))
            if now.witnesses != previous.witnesses, let entry {
                events.append(Event(seq: entry.seq, day: entry.day, type: entry.type, summary: entry.summary))
            }
            previous = now
        }
        let state = full.state(day: day)
        if let days = try explained.days(in: state) {
            events.removeAll { event in event.day.map { !days.contains($0) } ?? true }
        }
        if let walk = full.streakWalk(day: day), let run = explained.run(in: walk, longest: state.streak.longest) {
            let grace = graceEvents(of: run, pauses: full.streakGrace.pauses, entries: graceEntries)
            events.removeAll { event in grace.contains { $0.seq == event.seq } }
            events = (events + grace).sorted { $0.seq < $1.seq }
        }
        return Explanation(path: path, value: final.value, rule: explained.rule, events: events)
    }

    /// The grants that paid for the run's frozen days and the pauses of its
    /// paused days, each summary naming those days.
    private static func graceEvents(of run: StreakWalk.Run, pauses: [StreakGrace.Pause],
                                    entries: [Int: AuditEntry]) -> [Event] {
        var days: [Int: (frozen: [Day], paused: [Day])] = [:]
        for (day, payer) in zip(run.run.frozen, run.payers) { days[payer, default: ([], [])].frozen.append(day) }
        for day in run.pausedDays {
            // The pause (first in log order) covering the day.
            if let pause = pauses.filter({ $0.from <= day && day <= $0.to }).min(by: { $0.seq < $1.seq }) {
                days[pause.seq, default: ([], [])].paused.append(day)
            }
        }
        return days.compactMap { seq, named in
            guard let entry = entries[seq] else { return nil }
            var summary = entry.summary
            if !named.frozen.isEmpty { summary += " · paid for frozen " + Self.list(named.frozen) }
            if !named.paused.isEmpty { summary += " · paused " + Self.list(named.paused) + " of the run" }
            return Event(seq: seq, day: entry.day, type: entry.type, summary: summary)
        }
    }

    /// `2025-10-08`, `2025-10-08, 2025-10-09`, or `2025-10-08 … 2025-10-14 (7 days)`.
    private static func list(_ days: [Day]) -> String {
        guard days.count > 2, let first = days.first, let last = days.last else {
            return (days.count == 1 ? "day " : "days ") + days.map(\.description).joined(separator: ", ")
        }
        return "days \(first) … \(last) (\(days.count) days)"
    }

    /// The state has no member at this path.
    public struct UnknownPath: Error, Sendable, Hashable, CustomStringConvertible {
        /// The path asked for.
        public var path: String
        /// The members that can be explained, for the message.
        public var known: [String]
        public var description: String {
            "state has no member '\(path)'; members: \(known.joined(separator: ", ")) (or any member path of state --json, with dots)"
        }
    }

    /// `{"path":...,"value":...,"rule":...,"events":[{"seq","day","type","summary"}]}`.
    public var jsonBytes: [UInt8] {
        var w = JSONWriter()
        w.object { w, o in
            o.string(&w, "path", path); o.key(&w, "value"); w.value(value); o.string(&w, "rule", rule)
            o.objects(&w, "events", events) { w, o, e in
                o.integer(&w, "seq", e.seq); o.day(&w, "day", e.day); o.string(&w, "type", e.type); o.string(&w, "summary", e.summary)
            }
        }
        return w.bytes
    }
}
