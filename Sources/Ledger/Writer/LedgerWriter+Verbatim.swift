import Events

/// Appending lines made elsewhere, byte for byte (a replica's pull).
extension LedgerWriter {
    /// Appends `lines` (each without its LF) exactly as they are, if and only
    /// if they continue this log's chain; a line the log already holds (same
    /// seq, same bytes) is skipped. Checked as `verify` checks a line (the
    /// line itself, seq, prev, unique id). All or nothing: a line that does not
    /// continue the chain, or differs from the held line at its seq, refuses
    /// the whole input (`.replicaDiverged`, naming the input's line and the
    /// log's) and nothing is written. `label` names input line `n` (1-based).
    func appendVerbatim(_ lines: [[UInt8]], label: (Int) -> String) throws(LedgerError) -> PullResult {
        try checkUsable()
        return try withLock { () throws(LedgerError) -> PullResult in
            try catchUp()
            var trial = chain
            let fresh = try LedgerWriter.continuation(of: &trial, lines, path: path, label: label) { (seq) throws(LedgerError) in
                try lineBytes(seq: seq)
            }
            guard !fresh.isEmpty else { return PullResult(appended: 0, skipped: lines.count, head: chain.head) }
            let before = knownSize
            var bytes: [UInt8] = []
            bytes.reserveCapacity(fresh.reduce(0) { $0 + $1.count + 1 })
            var starts: [Int] = []
            for line in fresh {
                starts.append(before + bytes.count)
                bytes += line
                bytes.append(0x0A)
            }
            try write(bytes, before: before, events: fresh.count)
            try syncBatch(count: fresh.count)
            chain = trial
            lineStarts += starts
            knownSize = before + bytes.count
            return PullResult(appended: fresh.count, skipped: lines.count - fresh.count, head: chain.head)
        }
    }

    /// Checks `lines` against a chain (`trial`, the log's lines 1...`trial.count`,
    /// whose bytes `heldLine` reads back) and returns the lines that extend it,
    /// `trial` then holding them; throws `.replicaDiverged` at the first line
    /// that neither repeats a held line exactly nor continues the chain.
    static func continuation(of trial: inout ChainState, _ lines: [[UInt8]], path: String, label: (Int) -> String,
                             heldLine: (Int) throws(LedgerError) -> [UInt8]) throws(LedgerError) -> [[UInt8]] {
        let held = trial.count
        var fresh: [[UInt8]] = []
        for (k, bytes) in lines.enumerated() {
            let number = k + 1
            let record: Record
            do { record = try LineCodec.decodeRecord(bytes) } catch {
                throw LedgerError(.replicaDiverged, path: path,
                                  "\(label(number)) is not a log line (\(error.kind.rawValue): \(error.message)); the replica has \(trial.count) "
                                      + "line\(trial.count == 1 ? "" : "s"). Nothing was written")
            }
            if record.seq >= 1, record.seq <= trial.count {
                let existing = record.seq <= held ? try heldLine(record.seq) : fresh[record.seq - held - 1]
                guard existing == bytes else {
                    throw LedgerError(.replicaDiverged, path: path,
                                      "\(label(number)) (seq \(record.seq), id \"\(record.id)\") differs from the replica's line \(record.seq): "
                                          + "the source rewrote a line this replica already holds. Nothing was written")
                }
                continue
            }
            let problem: LineProblem? = bytes.withUnsafeBytes { raw in
                switch trial.accept(ScannedLine(number: trial.count + 1, offset: 0, length: raw.count, bytes: raw)) {
                case .success: nil
                case .failure(let p): p
                }
            }
            if let problem {
                throw LedgerError(.replicaDiverged, path: path,
                                  "\(label(number)) (seq \(record.seq), id \"\(record.id)\") does not continue the replica's chain after its line "
                                      + "\(trial.count): \(problem). Nothing was written")
            }
            fresh.append(bytes)
        }
        return fresh
    }
}

/// What a pull did.
public struct PullResult: Sendable, Hashable {
    /// Lines appended to the replica.
    public var appended: Int
    /// Input lines the replica already held (skipped).
    public var skipped: Int
    /// The replica's head after the pull.
    public var head: Head
}
