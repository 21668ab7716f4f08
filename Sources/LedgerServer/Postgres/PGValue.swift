/// A statement's parameter or a result's column, in PostgreSQL's binary form.
struct PGValue: Sendable {
    /// The type's OID (`bytea` 17, `int8` 20, `text` 25).
    let oid: UInt32
    /// The value's binary form.
    let bytes: [UInt8]

    /// A `bytea`.
    static func bytea<C: Collection>(_ bytes: C) -> PGValue where C.Element == UInt8 { PGValue(oid: 17, bytes: Array(bytes)) }
    /// An `int8`.
    static func int8(_ value: Int) -> PGValue { PGValue(oid: 20, bytes: bigEndian(UInt64(bitPattern: Int64(value)))) }
    /// A `text`.
    static func text(_ value: String) -> PGValue { PGValue(oid: 25, bytes: Array(value.utf8)) }

    /// A `bytea[]` (one dimension, no NULL).
    static func byteaArray<S: Sequence>(_ elements: S) -> PGValue where S.Element: Collection, S.Element.Element == UInt8 {
        array(oid: 1001, element: 17, elements.map { Array($0) })
    }
    /// An `int8[]` (one dimension).
    static func int8Array<S: Sequence<Int>>(_ values: S) -> PGValue {
        array(oid: 1016, element: 20, values.map { bigEndian(UInt64(bitPattern: Int64($0))) })
    }

    /// A one-dimensional array without NULLs in PostgreSQL's binary form:
    /// dimensions, has-nulls, element type, length, lower bound 1, then each
    /// element's length and bytes (`array_recv`).
    private static func array(oid: UInt32, element: UInt32, _ elements: [[UInt8]]) -> PGValue {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 + elements.reduce(0) { $0 + 4 + $1.count })
        func int32(_ v: UInt32) { bytes += (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
        int32(1)
        int32(0)
        int32(element)
        int32(UInt32(elements.count))
        int32(1)
        for e in elements {
            int32(UInt32(e.count))
            bytes += e
        }
        return PGValue(oid: oid, bytes: bytes)
    }

    /// A binary `int8` (or `xid8`) column's value, or nil when it is not 8 bytes.
    static func integer(_ bytes: [UInt8]?) -> UInt64? {
        guard let bytes, bytes.count == 8 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func bigEndian(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) } }
}

/// A failure of the PostgreSQL store: whether trying again may succeed
/// (the server went away, a failover, a standby in read-only mode: `503`
/// and the client retries) or not.
struct PGError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        /// The database cannot answer now (connection lost, shutting down,
        /// read-only after a failover, too many connections): retry later.
        case unavailable
        /// Another writer stored a line at this seq first (`23505`): catch up and seal again.
        case seqTaken
        /// Anything else (a bug, a permission, a damaged row).
        case failed
    }

    var kind: Kind
    /// The SQLSTATE, when the server sent one.
    var sqlState = ""
    var message: String

    init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    init(sqlState: String, message: String, connectionLost: Bool) {
        self.sqlState = sqlState
        self.message = message
        if connectionLost { kind = .unavailable; return }
        switch sqlState {
        case "23505": kind = .seqTaken
        // connection exceptions, shutdown, read-only (a standby), too many connections, serialization/deadlock
        case _ where sqlState.hasPrefix("08"), "57P01", "57P02", "57P03", "25006", "53300", "40001", "40P01": kind = .unavailable
        default: kind = .failed
        }
    }

    var description: String { sqlState.isEmpty ? message : "\(message) (SQLSTATE \(sqlState))" }

    /// libpq's message without its trailing newlines.
    static func trimmed(_ text: String) -> String {
        var t = Substring(text)
        while t.last == "\n" || t.last == " " { t = t.dropLast() }
        return t.replacingNewlines()
    }
}

private extension Substring {
    func replacingNewlines() -> String { String(map { $0 == "\n" ? " " : $0 }) }
}

/// Connection URIs as they may be shown: never with their password.
enum PGURI {
    /// Whether `text` names a PostgreSQL store (`postgresql://` or `postgres://`).
    static func isStore(_ text: String) -> Bool { text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") }

    /// `uri` with the password of `user:password@` and of `password=` replaced by `***`.
    static func redacted(_ uri: String) -> String {
        var bytes = Array(uri.utf8)
        let star = Array("***".utf8)
        // scheme://user:password@host…: the password runs from the first ':' after '//' to the last '@' before the path.
        if let scheme = find(Array("://".utf8), in: bytes, from: 0) {
            let start = scheme + 3
            let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.endIndex
            if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")),
               let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")) {
                bytes.replaceSubrange((colon + 1)..<at, with: star)
            }
        }
        // password=… in the query (URI) or as a key=value pair.
        let key = Array("password=".utf8)
        var from = 0
        while let k = find(key, in: bytes, from: from) {
            let start = k + key.count
            let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: " ") } ?? bytes.endIndex
            bytes.replaceSubrange(start..<end, with: star)
            from = start + star.count
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard bytes.count >= needle.count, from <= bytes.count - needle.count else { return nil }
        for i in from...(bytes.count - needle.count) where bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}
