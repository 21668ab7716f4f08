/// An event's line, checked and encoded before its `seq` and `prev` are
/// known: the writer prepares these outside its lock and seals them under it
/// by copying bytes, without encoding again.
///
/// It holds the line as the first line of a log (`{"v":1,"seq":1,` ...
/// `,"prev":"000…0"}`). Sealed at `seq`, the line is those bytes with the
/// `1` replaced by `seq`'s digits and the zeros by the previous line's hash:
/// exactly ``LineCodec/encode(_:)`` of the envelope at that `seq` and `prev`
/// (the tests compare them on random events), since both encoders write `seq`
/// second and `prev` last, and 64 hex digits need no escape.
package struct PendingLine: Sendable {
    /// The line at `seq` 1 after the genesis `prev`.
    package let template: [UInt8]

    /// `{"v":1,"seq":`
    static let head: [UInt8] = Array(#"{"v":1,"seq":"#.utf8)
    /// What the line at seq 1 starts with.
    static let first: [UInt8] = Array(#"{"v":1,"seq":1,"#.utf8)
    /// What a line with the genesis `prev` ends with.
    static let genesisEnd: [UInt8] = Array(#","prev":""#.utf8) + Array(repeating: UInt8(ascii: "0"), count: 64) + Array(#""}"#.utf8)
    /// `"}` after the 64 digits of `prev`.
    static let prevTail = 2

    /// Takes an encoded line at seq 1 with the genesis `prev`; nil when it is not laid out so.
    init?(_ line: [UInt8]) {
        let first = PendingLine.first, end = PendingLine.genesisEnd
        let laidOut = line.withUnsafeBytes { u in
            u.count > first.count + end.count
                && first.withUnsafeBytes { PendingLine.equal(u, at: 0, $0) }
                && end.withUnsafeBytes { PendingLine.equal(u, at: u.count - end.count, $0) }
        }
        guard laidOut else { return nil }
        template = line
    }

    /// The line's length at `seq` (>= 1), without its LF.
    @inline(__always)
    package func length(seq: Int) -> Int { template.count - 1 + PendingLine.digits(seq) }

    /// Writes the line at `seq` (>= 1) to `out`, exactly ``length(seq:)``
    /// bytes, with `prev` left as 64 zeros; returns the offset in `out` of
    /// `prev`'s first digit, for the caller to write the previous line's hash there.
    package func write(seq: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let head = PendingLine.head.count
        let digits = PendingLine.digits(seq)
        template.withUnsafeBufferPointer { t in
            guard let base = t.baseAddress else { return }
            out.update(from: base, count: head)
            var m = seq
            var k = head + digits
            repeat {
                k -= 1
                out[k] = UInt8(truncatingIfNeeded: m % 10) &+ UInt8(ascii: "0")
                m /= 10
            } while m > 0
            (out + head + digits).update(from: base + head + 1, count: t.count - head - 1)
        }
        return length(seq: seq) - PendingLine.prevTail - 64
    }

    /// Whether `u[at...]` starts with `v` (compared eight bytes at a time).
    static func equal(_ u: UnsafeRawBufferPointer, at: Int, _ v: UnsafeRawBufferPointer) -> Bool {
        guard at >= 0, at + v.count <= u.count else { return false }
        var k = 0
        while k + 8 <= v.count {
            guard u.loadUnaligned(fromByteOffset: at + k, as: UInt64.self) == v.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            else { return false }
            k += 8
        }
        while k < v.count {
            guard u[at + k] == v[k] else { return false }
            k += 1
        }
        return true
    }

    /// How many decimal digits `n` (>= 0) has.
    @inline(__always)
    static func digits(_ n: Int) -> Int {
        var d = 1
        var m = n
        while m >= 10 { d += 1; m /= 10 }
        return d
    }
}
