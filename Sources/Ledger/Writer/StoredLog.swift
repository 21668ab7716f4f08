import Events

/// A learner log whose lines are kept somewhere other than a file (a
/// database's rows, `serve --store postgresql://…`): the writer's rules,
/// the same as `LedgerWriter`'s, over lines a store hands it.
///
/// The store is the seam: it serialises appends to one log (a lock, or a
/// unique seq so that a second append at the same seq fails), hands this log
/// the lines it has not seen (``accept(_:)``, each checked as `verify` checks
/// it), asks it to ``seal(_:lineBytes:)`` a batch after its last line
/// (`Chain.seal`: seq, prev, ids, conflicting duplicates and the line's exact
/// bytes, the one rule `LedgerWriter` also seals with), stores the lines, and
/// only once they are durable calls ``record(_:)``. A store that cannot tell
/// whether its lines were kept drops this log and builds it again from
/// what it holds.
///
/// Not thread-safe: one caller at a time.
package final class StoredLog {
    /// Names the log in errors (`learner "u-1"`).
    package let name: String
    private var chain = ChainState()

    /// An empty log (no line seen yet).
    package init(name: String) { self.name = name }

    /// The last line seen: its seq and SHA-256.
    package var head: Head { chain.head }

    /// Checks `line` (without its LF) as the log's next line and keeps it;
    /// a line that breaks a rule is `.damaged`, naming its seq and problem.
    package func accept(_ line: [UInt8]) throws(LedgerError) {
        let number = chain.count + 1
        let problem = line.withUnsafeBytes { bytes in
            chain.accept(ScannedLine(number: number, offset: 0, length: bytes.count, bytes: bytes).checked(keepRecord: false))
        }
        if let problem {
            throw LedgerError(.damaged, path: name, "\(problem): the stored log is damaged; nothing is appended to it",
                              cause: .problem(problem))
        }
    }

    /// The new lines of `events` after the last line seen, sealed (the log
    /// is not changed; ``record(_:)`` once they are stored). `lineBytes`
    /// reads a line this log has seen back, when an id repeats.
    package func seal(_ events: [NewEvent], lineBytes: (Int) throws(LedgerError) -> [UInt8]) throws(LedgerError) -> SealedLines {
        try chain.seal(try PreparedEvents(events, path: name), joined: nil, path: name, lineBytes: lineBytes)
    }

    /// Records lines sealed by ``seal(_:lineBytes:)`` once the store keeps them durably.
    package func record(_ sealed: SealedLines) { chain.recordOwn(sealed) }
}

extension StoredLog {
    /// The records of a stored log's `lines` (each without its LF, in seq
    /// order), each checked as `verify` checks it; a line that breaks a rule
    /// is `.damaged`. What the server's `state` folds over a store.
    package static func forEachRecord(_ lines: [[UInt8]], name: String, _ body: (Record) -> Void) throws(LedgerError) {
        var chain = ChainState()
        for line in lines {
            let number = chain.count + 1
            let outcome = line.withUnsafeBytes { bytes in
                chain.accept(ScannedLine(number: number, offset: 0, length: bytes.count, bytes: bytes))
            }
            switch outcome {
            case .success(let record): body(record)
            case .failure(let problem):
                throw LedgerError(.damaged, path: name, "\(problem): the stored log is damaged", cause: .problem(problem))
            }
        }
    }
}
