import Events
import Ledger

/// One request's line on stderr (`serve` without `--quiet`):
/// `2026-11-29T05:06:31.123Z 192.0.2.7 GET /v1/learners/u-1/events?after=&limit= 200 4096 0.4ms`:
/// the time the answer was sent (RFC 3339, UTC), the client's address, the
/// method, the path with the query's values dropped, the status, the body's
/// bytes and the milliseconds from the head's arrival to the answer's end.
enum AccessLine {
    /// The line.
    static func format(at milliseconds: Int, client: String, method: String, path: String, status: Int, bytes: Int,
                       nanoseconds: UInt64) -> String {
        let tenths = Int((Double(nanoseconds) / 1e5).rounded())
        return "\(timestamp(milliseconds)) \(client) \(method) \(path) \(status) \(bytes) \(tenths / 10).\(tenths % 10)ms"
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for milliseconds since 1970-01-01 UTC.
    static func timestamp(_ milliseconds: Int) -> String {
        let (days, inDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, ms) = inDay < 0 ? (days - 1, inDay + 86_400_000) : (days, inDay)
        let seconds = ms / 1000
        return Day(ordinal: day).description + "T" + Day.pad(seconds / 3600, 2) + ":" + Day.pad(seconds / 60 % 60, 2) + ":"
            + Day.pad(seconds % 60, 2) + "." + Day.pad(ms % 1000, 3) + "Z"
    }

    /// The request's path for the line: the query's names kept, their values dropped.
    static func path(_ head: RequestHead) -> String {
        guard let query = head.query else { return head.path }
        let names = query.utf8.split(separator: UInt8(ascii: "&")).map {
            String(decoding: $0.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)[0], as: UTF8.self) + "="
        }
        return head.path + "?" + names.joined(separator: "&")
    }

    /// Who the client is: the connection's peer, or, when the peer is the
    /// trusted proxy, the last address of `X-Forwarded-For` (the one that
    /// proxy added: the ones before it are whatever the client sent, so
    /// any of them could be forged). A value that is not a numeric address
    /// is not logged (`peer`, then); without the field, the peer.
    static func client(peer: String, head: RequestHead?, trustedProxy: String?) -> String {
        guard let trustedProxy, peer == trustedProxy || peer == "::ffff:" + trustedProxy,
              let forwarded = head?.field("x-forwarded-for"),
              let last = forwarded.split(separator: ",").last?.trimmingSpaces,
              let address = System.numericAddress(String(last)) else { return peer }
        return address
    }
}
