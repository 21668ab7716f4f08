import Events
import Projections

/// Prints an audit timeline for a person, entry by entry, in log order.
///
/// Lines are grouped under learner days, but the log order is never changed:
/// a day heading is printed whenever the day changes from the previous line,
/// so a day whose events were recorded after later days' appears again,
/// headed `(continued)`. Each line shows the local time as written, the UTC
/// offset when it changes, the summary and the `seq`; marks follow:
/// `⏱ late` and `⚠ kind`, each explained on an indented line below (a run of
/// late lines recorded after the same line is explained once).
public struct AuditTextPrinter: Sendable {
    private var day: Day?
    private var started = false
    private var daysShown: Set<Day> = []
    private var offset: Int?
    /// The line a run of late entries was recorded after: explained once per run.
    private var lastLate: Int?

    /// A printer with nothing printed yet.
    public init() {}

    /// The text of one entry (with a day heading before it when the day changes), ending with LF.
    public mutating func text(for entry: AuditEntry) -> String {
        var out = ""
        if !started || entry.day != day {
            let heading = entry.day.map { d in
                d.description + " " + AuditTextPrinter.weekdays[d.weekdayIndex] + (daysShown.contains(d) ? " (continued)" : "")
            } ?? "lines of a newer format version"
            out += (started ? "\n" : "") + heading + "\n"
            started = true
            day = entry.day
            if let d = entry.day { daysShown.insert(d) }
            offset = nil
        }
        var time = "     "
        if let at = entry.at {
            time = String(at.localTime.prefix(5))
            if at.day != entry.day { time = "\(at.day) " + time }
            if at.offsetMinutes != offset {
                time += " " + at.offsetText
                offset = at.offsetMinutes
            }
        }
        var line = time + "  " + entry.summary + "  · seq \(entry.seq)"
        if entry.late != nil { line += "  ⏱ late" }
        for a in entry.anomalies { line += "  ⚠ \(a.kind)" }
        out += line + "\n"
        let indent = "       ↳ "
        if let late = entry.late, late.afterSeq != lastLate {
            out += indent + "recorded late: it happened \(late.by.readable) before seq \(late.afterSeq), "
                + "which is earlier in the log\n"
        }
        lastLate = entry.late?.afterSeq
        for a in entry.anomalies { out += indent + "\(a.kind): \(a.detail)\n" }
        return out
    }

    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
}

extension Day {
    /// 0 for Monday ... 6 for Sunday (1970-01-01 was a Thursday).
    var weekdayIndex: Int { ((ordinal + 3) % 7 + 7) % 7 }
}
