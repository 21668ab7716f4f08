import Events

/// A device's replica of a learner's server log: a byte-exact prefix of it,
/// extended only by lines that continue its chain (see docs/sync.md).
///
/// ```swift
/// // Pull: the server sends its lines after the replica's head (`LogReader.rawLines(after:)`).
/// let replica = Replica(path: replicaPath)
/// let result = try replica.pull(lines)            // .replicaDiverged if the server rewrote history
/// ```
public struct Replica: Sendable {
    /// The replica's path.
    public let path: String

    /// The replica at `path` (created, mode 0600, by the first pull that brings lines).
    public init(path: String) { self.path = path }

    /// The replica's head: what to ask the server for (`after: head.seq`). An absent replica's is `Head.empty`.
    public func head() throws(LedgerError) -> Head {
        do { return try LogReader(path: path).verify().checkedHead(path: path) } catch {
            if error.code == .notFound { return .empty }
            throw error
        }
    }

    /// Appends the server's `lines` (raw log lines without their LF, in order)
    /// verbatim if and only if they continue the replica's chain: lines it
    /// already holds (same seq, same bytes) are skipped, so a repeated pull is
    /// harmless. A line that does not continue the chain, or differs from the
    /// replica's line at its seq, throws `.replicaDiverged` naming both line
    /// numbers; nothing is written, and a replica that did not exist is not
    /// created. `source` names the input in messages (`stdin`).
    @discardableResult
    public func pull(_ lines: [[UInt8]], source: String = "input") throws(LedgerError) -> PullResult {
        let label = { (n: Int) in "\(source) line \(n)" }
        if try !exists() {
            // Checked before the file is made: a refused pull creates nothing.
            var empty = ChainState()
            let fresh = try LedgerWriter.continuation(of: &empty, lines, path: path, label: label) { (seq) throws(LedgerError) -> [UInt8] in
                throw LedgerError(.replicaDiverged, path: path, "the replica has no line \(seq)")
            }
            if fresh.isEmpty { return PullResult(appended: 0, skipped: lines.count, head: .empty) }
        }
        let writer = try LedgerWriter(path: path)
        defer { writer.close() }
        return try writer.appendVerbatim(lines, label: label)
    }

    /// ``pull(_:source:)`` of raw input as it came over the wire: lines ended
    /// by LF. Bytes after the last LF (an answer cut short) refuse the whole
    /// input (`.replicaDiverged` is not claimed: `.invalidEvent`, naming the
    /// line), and nothing is written: pull again.
    @discardableResult
    public func pull(input: [UInt8], source: String = "input") throws(LedgerError) -> PullResult {
        var lines: [[UInt8]] = []
        var start = 0
        for (i, b) in input.enumerated() where b == 0x0A {
            lines.append(Array(input[start..<i]))
            start = i + 1
        }
        if start < input.count {
            throw LedgerError(.invalidEvent, path: path,
                              "\(source) line \(lines.count + 1) has no LF at its end: the input was cut short; nothing was written (pull again)")
        }
        return try pull(lines, source: source)
    }

    /// Whether something is at the path (a missing directory counts as missing).
    private func exists() throws(LedgerError) -> Bool {
        do { _ = try System().lstat(path); return true } catch {
            if error.errno == .noEntry || error.errno == .notDirectory { return false }
            throw LedgerError(error, path: path, doing: "looking at the replica")
        }
    }
}

extension VerifyReport {
    /// The head, or the `.damaged` error of the first problem.
    func checkedHead(path: String) throws(LedgerError) -> Head {
        if let problem { throw LedgerError(damaged: problem, path: path) }
        return head
    }
}
