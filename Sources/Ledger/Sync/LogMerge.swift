import Events

/// Merging logs that grew apart (two devices of the past, a backup and a live
/// log) into one new log: every event once by id, in the order of
/// ``MergeOrder`` (the order `join` uses too), re-chained from seq 1. The output's bytes depend only
/// on the set of events, so merge is commutative, associative and idempotent.
public enum LogMerge {
    /// What a merge wrote.
    public struct Summary: Sendable, Hashable {
        /// Events in the output.
        public var events: Int
        /// Its head.
        public var head: Head
    }

    /// The merged log's lines (without LFs) of the logs at `inputs`: each
    /// verified first (a damaged one throws `.damaged` naming its file and
    /// line). An id with different content in two places throws
    /// `.conflictingDuplicate` naming both files and lines (all such ids, one a
    /// line). A line of a format version this reader does not know is
    /// relayed: only its `seq` and `prev` are rewritten,
    /// placed by its `at`; one that is not laid out as every version's writer
    /// lays it out, or whose `at` cannot be read, is refused (`.invalidEvent`,
    /// naming its file and line).
    public static func lines(of inputs: [String]) throws(LedgerError) -> [[UInt8]] {
        /// An event to write: known (encoded again) or relayed (a newer version's line, re-sealed).
        enum Line { case event(Envelope), relayed(PendingLine) }
        struct Taken { var at: Instant; var id: String; var line: Line; var bytes: [UInt8]; var place: String }
        var byID: [ExactString: Taken] = [:]
        var conflicts: [String] = []
        var firstConflictPath: String? = nil
        for path in inputs {
            for line in try VerifiedLog.load(path).lines {
                let taken: Taken
                let place = "\(path):\(line.number)"
                switch line.record {
                case .event(let envelope):
                    // Content alone: seq and prev 0 so that equal events encode alike.
                    let content = LineCodec.encode(envelope.resealed(seq: 1, prev: Envelope.genesis))
                    taken = Taken(at: envelope.at.instant, id: envelope.id, line: .event(envelope), bytes: content, place: place)
                case .newer(let newer):
                    guard let at = newer.at, let relayed = PendingLine(relaying: line.bytes) else {
                        throw LedgerError(.invalidEvent, path: path,
                                          "line \(line.number): a line of format version \(newer.version) (id \"\(newer.id)\") cannot be merged by this "
                                              + "reader: its at is unreadable or it is not laid out as a writer lays lines out. Nothing was written")
                    }
                    taken = Taken(at: at.instant, id: newer.id, line: .relayed(relayed), bytes: relayed.template, place: place)
                }
                guard let earlier = byID[ExactString(taken.id)] else {
                    byID[ExactString(taken.id)] = taken
                    continue
                }
                guard LineCodec.sameContent(earlier.bytes, taken.bytes) else {
                    if earlier.place != place {
                        conflicts.append("\(earlier.place) and \(place): conflicting_duplicate: id \"\(taken.id)\" has different content")
                        firstConflictPath = firstConflictPath ?? path
                    }
                    continue
                }
                // Equal content written differently: keep the smallest bytes, whatever the input order.
                if taken.bytes.lexicographicallyPrecedes(earlier.bytes) {
                    var smaller = taken
                    smaller.place = earlier.place
                    byID[ExactString(taken.id)] = smaller
                }
            }
        }
        if let path = firstConflictPath {
            throw LedgerError(.conflictingDuplicate, path: path, conflicts.joined(separator: "\n") + "\nNothing was written")
        }
        let ordered = byID.values.sorted { MergeOrder.precedes(($0.at, $0.id), ($1.at, $1.id)) }
        var out: [[UInt8]] = []
        out.reserveCapacity(ordered.count)
        var prev = Envelope.genesis
        for (k, taken) in ordered.enumerated() {
            let line: [UInt8]
            switch taken.line {
            case .event(let envelope): line = LineCodec.encode(envelope.resealed(seq: k + 1, prev: prev))
            case .relayed(let relayed): line = relayed.sealed(seq: k + 1, prev: prev)
            }
            prev = LineDigest.of(line).hex
            out.append(line)
        }
        return out
    }

    /// Merges the logs at `inputs` (``lines(of:)``) into a new log at `out`,
    /// which must not exist (`.permission` otherwise, and it is left as it is).
    /// Written whole: a temporary file beside it, fsync'd, renamed to `out`
    /// (mode 0600), the directory fsync'd. On any refusal nothing is written.
    @discardableResult
    public static func merge(_ inputs: [String], into out: String) throws(LedgerError) -> Summary {
        let file = AtomicFile(noun: "merged log", system: System())
        guard try file.existing(out, head: 0) == .none else {
            throw LedgerError(.permission, path: out, "already exists; merge writes a new log only (give a new file name)")
        }
        let lines = try lines(of: inputs)
        guard try file.existing(out, head: 0) == .none else {
            throw LedgerError(.permission, path: out, "appeared while the merge ran; it was left as it is")
        }
        try file.replace(out) { (sink) throws(PartialWriteError) in
            for var line in lines {
                line.append(0x0A)
                let sent = line.withUnsafeBytes { raw in Result { () throws(PartialWriteError) in try sink(raw) } }
                try sent.get()
            }
        }
        let head = lines.last.map { Head(seq: lines.count, sha256: LineDigest.of($0)) } ?? .empty
        return Summary(events: lines.count, head: head)
    }
}
