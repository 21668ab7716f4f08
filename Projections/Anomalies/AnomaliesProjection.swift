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
        state.append(Anomaly(seq: line.seq, kind: .newerVersion,
                             detail: "line written in format version \(line.version)\(type), skipped by this version-1 reader\(who)"))
    }
}
