/// The line that takes an erased line's place (`progress-ledger erase`):
/// it keeps the erased line's `seq` and `prev` and the SHA-256 of its bytes,
/// and nothing else of it.
///
/// ```json
/// {"v":1,"seq":7,"redacted":"<64 hex: SHA-256 of the erased line>","prev":"<64 hex>"}
/// ```
///
/// The next line's `prev` is still the hash of the erased line, so a reader
/// takes `redacted` as the stub's digest for the chain: every link, and any
/// head kept before the erasure, still checks. Only this exact spelling is a
/// stub (members in this order, no spaces, lowercase hex); any other line
/// with a `redacted` member is an ordinary line and is refused by the
/// envelope's rules. This type is the one place the form is written and read.
public struct RedactionStub: Sendable, Hashable {
    /// The erased line's `seq`.
    public var seq: Int
    /// Lowercase hex SHA-256 of the erased line's bytes (without its LF).
    public var redacted: String
    /// The erased line's `prev`.
    public var prev: String

    /// A stub for the line `seq` whose bytes hash to `redacted` and whose `prev` was `prev`.
    public init(seq: Int, redacted: String, prev: String) {
        self.seq = seq; self.redacted = redacted; self.prev = prev
    }

    // The stub's fixed text, as constants (no global to initialize and look up
    // on each line `parts` rules out), inlinable so that the length test folds
    // to two compares where `parts` is called, in any module.
    @inlinable static var head: StaticString { #"{"v":1,"seq":"# }
    @inlinable static var middle: StaticString { #","redacted":""# }
    @inlinable static var link: StaticString { #"","prev":""# }
    @inlinable static var end: StaticString { #""}"# }
    /// The bytes of a stub but its seq's digits.
    @inlinable static var fixed: Int { head.utf8CodeUnitCount + middle.utf8CodeUnitCount + 64 + link.utf8CodeUnitCount + 64 + end.utf8CodeUnitCount }

    /// The stub's line, without its LF.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(180)
        func put(_ text: StaticString) { out += UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount) }
        put(RedactionStub.head)
        out += Array(String(seq).utf8)
        put(RedactionStub.middle)
        out += Array(redacted.utf8)
        put(RedactionStub.link)
        out += Array(prev.utf8)
        put(RedactionStub.end)
        return out
    }

    /// Where a stub's members are in its line: `seq`, and the byte ranges of
    /// the 64 hex digits of `redacted` and of `prev`. nil when the line is not
    /// a stub (a cheap test on the bytes after `seq` for every other line).
    @usableFromInline package struct Parts: Sendable, Hashable {
        /// The erased line's seq.
        package var seq: Int
        /// The bytes of `redacted`'s hex digits.
        package var redacted: Range<Int>
        /// The bytes of `prev`'s hex digits.
        package var prev: Range<Int>
    }

    /// The stub's parts, or nil when `line` is not a stub, spelled exactly.
    ///
    /// Inline where it is called: the shortest stub has a one-digit seq, the
    /// longest nineteen digits, and a line of any other length (as nearly
    /// every event line is) is ruled out there by two compares, with no call.
    @inlinable package static func parts(_ line: UnsafeRawBufferPointer) -> Parts? {
        guard hasStubLength(line.count) else { return nil }
        return partsOfStubLength(line)
    }

    /// Whether a line of `count` bytes (without its LF) is as long as a stub
    /// can be: a seq of one to nineteen digits. Two compares where it is
    /// called (for a caller that tests the length before anything else).
    @inlinable package static func hasStubLength(_ count: Int) -> Bool {
        count >= fixed + 1 && count <= fixed + 19
    }

    /// ``parts(_:)`` for a line of a stub's length.
    @usableFromInline static func partsOfStubLength(_ line: UnsafeRawBufferPointer) -> Parts? {
        let n = line.count
        // Past the seq, every stub is the same length: `,"redacted":"` is
        // where it ends a stub. A line that has not it there is none (an
        // event line of a stub's length is ruled out by a few bytes).
        guard matches(middle, in: line, at: n - (middle.utf8CodeUnitCount + 64 + link.utf8CodeUnitCount + 64 + end.utf8CodeUnitCount)),
              matches(head, in: line, at: 0) else { return nil }
        var k = head.utf8CodeUnitCount
        var seq = 0
        let digitsStart = k
        while k < n, line[k] >= 0x30, line[k] <= 0x39 {
            let (m, o1) = seq.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int(line[k] - 0x30))
            guard !o1, !o2 else { return nil }
            seq = s; k += 1
        }
        // 1 to 19 digits, no leading zero, seq >= 1.
        guard k > digitsStart, line[digitsStart] != 0x30 else { return nil }
        guard matches(middle, in: line, at: k) else { return nil }
        k += middle.utf8CodeUnitCount
        let redacted = k..<(k + 64)
        guard k + 64 <= n, isLowerHex(line, redacted) else { return nil }
        k += 64
        guard matches(link, in: line, at: k) else { return nil }
        k += link.utf8CodeUnitCount
        let prev = k..<(k + 64)
        guard k + 64 <= n, isLowerHex(line, prev) else { return nil }
        k += 64
        guard matches(end, in: line, at: k) else { return nil }
        k += end.utf8CodeUnitCount
        guard k == n else { return nil }
        return Parts(seq: seq, redacted: redacted, prev: prev)
    }

    /// The stub in `line`, or nil when the line is not a stub.
    public static func decode(_ line: UnsafeRawBufferPointer) -> RedactionStub? {
        guard let p = parts(line) else { return nil }
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: line[r]), as: UTF8.self) }
        return RedactionStub(seq: p.seq, redacted: text(p.redacted), prev: text(p.prev))
    }

    /// The stub in `line` given as bytes, or nil.
    public static func decode<Bytes: Collection<UInt8>>(_ line: Bytes) -> RedactionStub? {
        if let r = line.withContiguousStorageIfAvailable({ decode(UnsafeRawBufferPointer($0)) }) { return r }
        return Array(line).withUnsafeBytes { decode($0) }
    }

    /// Whether `line` holds `text`'s bytes at `k`.
    @inline(__always) private static func matches(_ text: StaticString, in line: UnsafeRawBufferPointer, at k: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard k >= 0, k + count <= line.count else { return false }
        for j in 0..<count where line[k + j] != text.utf8Start[j] { return false }
        return true
    }

    private static func isLowerHex(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        for k in range {
            let b = line[k]
            guard (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) else { return false }
        }
        return true
    }
}
