import Events
import Ledger

/// Where a reader of the change feed (`GET /v1/events`) is: after the line
/// of seq `seq` of the transaction `transaction` (its PostgreSQL `xid8`),
/// written `TRANSACTION.SEQ` (`0.0` before the first).
///
/// No two lines of one transaction share a seq (a transaction appends to one
/// learner, or is a group commit of several learners' pushes whose seqs do
/// not clash, ``GroupCommit``), so (transaction, seq) orders every line. The feed hands out only lines of transactions below the oldest one
/// still running (`pg_snapshot_xmin`): one that commits after a
/// later-numbered one is held back until it is done, never skipped.
struct FeedCursor: Sendable, Equatable, CustomStringConvertible {
    var transaction: UInt64
    var seq: UInt64

    static let start = FeedCursor(transaction: 0, seq: 0)

    /// `TRANSACTION.SEQ`, both decimal; nil for anything else.
    init?(_ text: String) {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 20 && $0.allSatisfy { $0 >= 48 && $0 <= 57 } }),
              let t = UInt64(String(decoding: parts[0], as: UTF8.self)), let s = UInt64(String(decoding: parts[1], as: UTF8.self))
        else { return nil }
        transaction = t; seq = s
    }

    init(transaction: UInt64, seq: UInt64) { self.transaction = transaction; self.seq = seq }

    var description: String { "\(transaction).\(seq)" }
}

/// One page of the change feed: lines in commit order and where to go on from.
struct FeedPage: Sendable {
    /// One learner's line.
    struct Line: Sendable {
        var user: String
        var seq: Int
        /// The line's bytes, without its LF (the learner log's exact bytes).
        var bytes: [UInt8]
    }

    var lines: [Line]
    /// The cursor after the last line (the one given when there is none).
    var next: FeedCursor
    /// No line handed out, but committed lines after the cursor are held
    /// back behind an older transaction still running. That transaction may
    /// end without a push's notification (a rollback, another process's
    /// session, another database's transaction on the cluster), so a reader
    /// that waits looks again soon instead of waiting for a push.
    var heldBack = false

    /// `{"events":[{"user":U,"seq":N,"line":{…}}…],"next":"CURSOR"}` and an LF:
    /// each line as its learner log holds it, byte for byte, as the value of `line`.
    var json: [UInt8] {
        var out: [UInt8] = Array(#"{"events":["#.utf8)
        out.reserveCapacity(64 + lines.reduce(0) { $0 + $1.bytes.count + 64 })
        for (k, line) in lines.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            var head = JSONWriter()
            head.value(.object([JSONMember("user", .string(line.user)), JSONMember("seq", .number(String(line.seq)))]))
            out += head.bytes.dropLast()          // `{"user":…,"seq":N` without its `}`
            out += Array(#","line":"#.utf8) + line.bytes + [UInt8(ascii: "}")]
        }
        var tail = JSONWriter()
        tail.value(.string(next.description))
        return out + Array(#"],"next":"#.utf8) + tail.bytes + [UInt8(ascii: "}"), 0x0A]
    }
}
