/// An event's line, checked and encoded before its `seq` and `prev` are
/// known: the writer prepares these outside its lock and seals them under it
/// by copying bytes, without encoding again.
///
/// It holds the line as the first line of a log (`{"v":N,"seq":1,` ...
/// `,"prev":"000…0"}`, N the version of the event's type, one digit). Sealed
/// at `seq`, the line is those bytes with the `1` after `"seq":` replaced by
/// `seq`'s digits and the zeros by the previous line's hash:
/// exactly ``LineCodec/encode(_:)`` of the envelope at that `seq` and `prev`
/// (the tests compare them on random events), since both encoders write `seq`
/// second and `prev` last, and 64 hex digits need no escape.
package struct PendingLine: Sendable {
    /// The line at `seq` 1 after the genesis `prev`.
    package let template: [UInt8]

    /// `{"v":N,"seq":` (N one digit).
    static let head: [UInt8] = Array(#"{"v":1,"seq":"#.utf8)
    /// What the line at seq 1 starts with, but N: `{"v":` and `,"seq":1,`.
    static let first: (v: [UInt8], seq: [UInt8]) = (Array(#"{"v":"#.utf8), Array(#","seq":1,"#.utf8))
    /// What a line with the genesis `prev` ends with.
    static let genesisEnd: [UInt8] = Array(#","prev":""#.utf8) + Array(repeating: UInt8(ascii: "0"), count: 64) + Array(#""}"#.utf8)
    /// `"}` after the 64 digits of `prev`.
    static let prevTail = 2

    /// Takes an encoded line at seq 1 with the genesis `prev`; nil when it is not laid out so.
    init?(_ line: [UInt8]) {
        let (v, seq) = PendingLine.first, end = PendingLine.genesisEnd
        let laidOut = line.withUnsafeBytes { u in
            u.count > v.count + 1 + seq.count + end.count
                && v.withUnsafeBytes { PendingLine.equal(u, at: 0, $0) }
                && (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(u[v.count])
                && seq.withUnsafeBytes { PendingLine.equal(u, at: v.count + 1, $0) }
                && end.withUnsafeBytes { PendingLine.equal(u, at: u.count - end.count, $0) }
        }
        guard laidOut else { return nil }
        template = line
    }

    /// The template of a stored line of any format version laid out as the
    /// writers of every version lay it out (docs/format.md, "How the format
    /// evolves": `{"v":N,"seq":S,` first, N one digit, and `,"prev":"` + 64
    /// lowercase hex digits + `"}` last): the line moved to seq 1 after the
    /// genesis, every other byte as it is. nil when the line is not so laid
    /// out. For `merge`, which re-chains lines a reader may not decode (a
    /// newer version's) without changing anything else in them.
    package init?(relaying line: [UInt8]) {
        let (v, seq) = PendingLine.first
        let end = PendingLine.genesisEnd.count
        let seqName = seq.dropLast(2)   // `,"seq":`
        guard line.count > v.count + 1 + seqName.count + 2 + end,
              line.starts(with: v), (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(line[v.count]),
              line[(v.count + 1)...].starts(with: seqName) else { return nil }
        var k = v.count + 1 + seqName.count
        let digits = k
        while k < line.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[k]) { k += 1 }
        let tail = line.count - end
        let prevName = PendingLine.genesisEnd.prefix(end - 66)   // `,"prev":"`
        guard k > digits, k < tail, line[k] == UInt8(ascii: ","),
              line[tail...].starts(with: prevName), line[(line.count - 2)...].elementsEqual(PendingLine.genesisEnd.suffix(2)),
              line[(tail + prevName.count)..<(line.count - 2)].allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self.init(Array(line[..<digits]) + [UInt8(ascii: "1")] + line[k..<tail] + PendingLine.genesisEnd)
    }

    /// The line at `seq` (>= 1) after the line whose SHA-256 is `prev` (64 lowercase hex digits).
    package func sealed(seq: Int, prev: String) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length(seq: seq))
        out.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let at = write(seq: seq, to: base)
            for (k, b) in prev.utf8.prefix(64).enumerated() { base[at + k] = b }
        }
        return out
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
