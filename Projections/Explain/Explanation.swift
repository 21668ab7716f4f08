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
        for record in records {
            projector.apply(record)
            let entry = timeline.add(record)
            let now = try explained.members(of: projector.state(day: day))
            if now.witnesses != previous.witnesses, let entry {
                events.append(Event(seq: entry.seq, day: entry.day, type: entry.type, summary: entry.summary))
            }
            previous = now
        }
        if let days = try explained.days(in: full.state(day: day)) {
            events.removeAll { event in event.day.map { !days.contains($0) } ?? true }
        }
        return Explanation(path: path, value: final.value, rule: explained.rule, events: events)
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
