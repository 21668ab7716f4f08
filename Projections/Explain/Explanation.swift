import Events

/// Why a member of `state --json` has its value: the value, the rule in one
/// sentence, and the learner's events behind it (`progress-ledger explain`).
///
/// The events come from the projections themselves, not from a second copy
/// of their rules: the learner's records are folded once, in order, by the
/// same ``LearnerProjector`` that `state` uses, and after each event the
/// members that witness the value are read at D (`ExplainedPath.witnesses`:
/// for `hints.balance`, the grants and uses; for `stats.accuracy`, the
/// answers counted; for the streaks, the state's `streak.runs`, keeping the
/// events on the days of the run the value counts: the finished daily attempt
/// that made each day of the current or longest run active). An event is
/// behind the value when it changed one of them. Only the top-level members
/// the witnesses name are read, and a member that grows with the learner's
/// history (the streak, the stats, the anomalies) only after an event that
/// changed its cheap mark (`StateMember.changeMark`), so the time grows with
/// the number of events, not with its square. Day, type and summary are the
/// audit's (``AuditTimeline``).
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
    ///
    /// Folds the records once when `options.day` is given, twice otherwise
    /// (the first fold finds D, the day of the learner's latest event).
    public static func explain(_ path: String, records: [Record], options: StateOptions) throws(UnknownPath) -> Explanation {
        let explained = ExplainedPath(path)
        var projector = LearnerProjector(options: options)
        var reader = WitnessReader(explained.watched, options: options)
        guard ExplainedPath.value(at: path, member: { reader.read($0, projector.folded, day: nil) }) != nil,
              explained.witnesses.allSatisfy({ w in ExplainedPath.value(at: w, member: { reader.read($0, projector.folded, day: nil) }) != nil })
        else { throw explained.unknown }
        let day: Day?
        if let given = options.day {
            day = given
        } else {
            var whole = LearnerProjector(options: options)
            whole.apply(contentsOf: records)
            day = whole.latestDay
        }
        reader = WitnessReader(explained.watched, options: options)
        func witnessed(_ fold: LearnerFold) -> [JSONValue?] {
            explained.witnesses.map { w in ExplainedPath.value(at: w, member: { reader.read($0, fold, day: day) }) }
        }
        var timeline = AuditTimeline(user: options.user)
        var previous = witnessed(projector.folded)
        var events: [Event] = []
        var graceEntries: [Int: AuditEntry] = [:]
        for record in records {
            projector.apply(record)
            let entry = timeline.add(record)
            if let entry, case .event(let e) = record, [.streakFreezeGranted, .streakPaused].contains(e.event.type) {
                graceEntries[entry.seq] = entry
            }
            let now = witnessed(projector.folded)
            if now != previous, let entry {
                events.append(Event(seq: entry.seq, day: entry.day, type: entry.type, summary: entry.summary))
            }
            previous = now
        }
        let fold = projector.folded
        let streak = fold.streak(at: day, options)
        if let days = explained.days(in: streak) {
            events.removeAll { event in event.day.map { !days.contains($0) } ?? true }
        }
        if let walk = projector.streakWalk(day: day), let run = explained.run(in: walk, longest: streak.longest) {
            let grace = graceEvents(of: run, pauses: projector.streakGrace.pauses, entries: graceEntries)
            events.removeAll { event in grace.contains { $0.seq == event.seq } }
            events = (events + grace).sorted { $0.seq < $1.seq }
        }
        var final = WitnessReader([], options: options)
        guard let value = ExplainedPath.value(at: path, member: { final.read($0, fold, day: day) }) else { throw explained.unknown }
        return Explanation(path: path, value: value, rule: explained.rule, events: events)
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

/// Reads the top-level members `explain` watches from the fold after each
/// event, keeping each one's last JSON and change mark: a member whose mark
/// did not change is not read again.
struct WitnessReader {
    private let options: StateOptions
    private var kept: [StateMember: (mark: AnyHashable?, value: JSONValue)] = [:]
    private let watched: [StateMember]

    init(_ watched: [StateMember], options: StateOptions) { (self.watched, self.options) = (watched, options) }

    /// The member `member` of the state at `day` from `fold`, as a JSON value.
    mutating func read(_ member: StateMember, _ fold: LearnerFold, day: Day?) -> JSONValue {
        let mark = member.changeMark(fold, day: day, options)
        if let mark, let last = kept[member], last.mark == mark { return last.value }
        let value = (try? JSONDocument.parse(member.json(fold, day: day, options))) ?? .null
        if watched.contains(member) { kept[member] = (mark, value) }
        return value
    }
}
