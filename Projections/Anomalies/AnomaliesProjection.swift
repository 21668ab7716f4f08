import Events

/// Every anomaly in log order. Never reset.
package enum AnomaliesProjection {
    /// Appends the anomalies one event carries (already in the spec's order).
    package static func reduce(into state: inout [Anomaly], _ found: [Anomaly]) {
        state.append(contentsOf: found)
    }

    /// Appends the `newer_version` anomaly of a line this reader skips.
    package static func reduce(into state: inout [Anomaly], newer line: NewerVersionLine) {
        let type = line.type.map { " (type \(quoted($0)))" } ?? ""
        let who = line.user == nil ? "; its user is unreadable, so it is reported for every user" : ""
        let known = FormatVersion.readable == 1 ? "version 1" : "versions 1 to \(FormatVersion.readable)"
        state.append(Anomaly(seq: line.seq, kind: .newerVersion,
                             detail: "line written in format version \(line.version)\(type), skipped by this reader of \(known)\(who)"))
    }

    /// The `freeze_overflow` anomaly of a grant over the cap.
    package static func anomaly(_ overflow: StreakWalk.Overflow) -> Anomaly {
        Anomaly(seq: overflow.seq, kind: .freezeOverflow,
                detail: "\(overflow.lost) streak freeze\(overflow.lost == 1 ? "" : "s") lost: at most \(StreakWalk.cap) are held")
    }

    /// `anomalies` with the `freeze_overflow` of each grant in `overflows`, in log order.
    package static func merging(_ anomalies: [Anomaly], _ overflows: [StreakWalk.Overflow]) -> [Anomaly] {
        guard !overflows.isEmpty else { return anomalies }
        // A grant carries no other anomaly: placing each by seq keeps log order.
        var merged = anomalies
        for o in overflows.sorted(by: { $0.seq < $1.seq }) {
            let k = merged.firstIndex { $0.seq > o.seq } ?? merged.endIndex
            merged.insert(anomaly(o), at: k)
        }
        return merged
    }
}
