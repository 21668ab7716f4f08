import Events
import Simulation
import Testing
@testable import Ledger

/// Several lines hashed at once (``LineDigest/of(_:into:lanes:)``: with the
/// SHA instructions, 1, 2 or 4 lines interleaved) against the Swift SHA-256
/// of each line alone, and verify reading its chunks that way.
@Suite("SHA-256 of several lines at once")
struct LineDigestLanesTests {
    /// The widths to try: each the SHA instructions can run (else the batch is hashed one by one).
    static let widths = LineDigest.hardware ? [1, 2, 4] : [LineDigest.lanes]

    /// Seeded bytes, read at many alignments.
    static let pool = LineDigestTests.bytes(16_384, seed: 36)

    /// The digests of `parts` (offset, length) of `bytes`, `lanes` at once.
    static func batch(_ parts: [(Int, Int)], lanes: Int, of bytes: [UInt8] = pool) -> [SHA256.Digest] {
        bytes.withUnsafeBytes { all in
            let spans = parts.map { LineDigest.span(UnsafeRawBufferPointer(rebasing: all[$0.0..<($0.0 + $0.1)])) }
            return [SHA256.Digest](unsafeUninitializedCapacity: parts.count) { out, count in
                spans.withUnsafeBufferPointer { s in
                    if let base = out.baseAddress { LineDigest.of(s, into: base, lanes: lanes) }
                }
                count = parts.count
            }
        }
    }

    /// The Swift SHA-256 of a part of `pool`.
    static func expected(_ part: (Int, Int)) -> SHA256.Digest { SHA256.hash(pool[part.0..<(part.0 + part.1)]) }

    @Test("two lanes: every pair of lengths 0...300, the lanes ending at different blocks")
    func everyPair() {
        // Lane one reads at odd alignments, lane two elsewhere; each line's expected digest computed once.
        let first = (0...300).map { (n: Int) -> (Int, Int) in (n % 61, n) }
        let second = (0...300).map { (n: Int) -> (Int, Int) in (1_000 + n % 37, n) }
        let want1 = first.map(Self.expected), want2 = second.map(Self.expected)
        for lanes in Self.widths {
            var wrong: [String] = []
            for a in 0...300 {
                for b in 0...300 {
                    let got = Self.batch([first[a], second[b]], lanes: lanes)
                    if got != [want1[a], want2[b]] { wrong.append("(\(a), \(b))") }
                }
            }
            #expect(wrong.isEmpty, "lanes \(lanes): \(wrong.count) pairs differ, first \(wrong.prefix(8))")
        }
    }

    @Test("four lanes: every length 0...200 in one lane against a few in the others, in every position")
    func fourLanes() {
        let others: [[Int]] = [[0, 0, 0], [55, 56, 64], [300, 1, 119], [128, 200, 63], [4_000, 9, 183]]
        var wrong: [String] = []
        for n in 0...200 {
            for rest in others {
                for position in 0...3 {
                    var lengths = rest
                    lengths.insert(n, at: position)
                    let parts = lengths.enumerated().map { (k, length) in (3_000 * k + (n + k) % 29, length) }
                    let want = parts.map(Self.expected)
                    for lanes in Self.widths where Self.batch(parts, lanes: lanes) != want {
                        wrong.append("lanes \(lanes): \(lengths)")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) batches differ, first \(wrong.prefix(8))")
    }

    @Test("seeded batches of 1...150 lines up to 4 KiB: each line's digest, whatever the width")
    func randomBatches() {
        var rng = SplitMix64(seed: 0x5_4a2)
        for round in 0..<100 {
            let count = 1 + Int(rng.next() % 150)
            let parts = (0..<count).map { _ -> (Int, Int) in
                let length = Int(rng.next() % 4_097)
                return (Int(rng.next() % UInt64(Self.pool.count - length + 1)), length)
            }
            let want = parts.map(Self.expected)
            for lanes in Self.widths {
                #expect(Self.batch(parts, lanes: lanes) == want, "round \(round), \(count) lines, lanes \(lanes)")
            }
            #expect(Self.batch(parts, lanes: LineDigest.lanes) == parts.map { part in
                Self.pool.withUnsafeBytes { LineDigest.of(UnsafeRawBufferPointer(rebasing: $0[part.0..<(part.0 + part.1)])) }
            }, "round \(round): the batch and the one-line digest")
        }
        // No lines: nothing written, nothing read.
        #expect(Self.batch([], lanes: 2).isEmpty)
    }

    @Test("the FIPS 180-4 examples, in one batch, each in every position")
    func knownAnswers() {
        let cases: [([UInt8], String)] = [
            (Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            ([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
             "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
            ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (Array("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8),
             "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        ]
        for lanes in Self.widths {
            for shift in 0..<cases.count {
                let order = cases[shift...] + cases[..<shift]
                // The examples one after another in one buffer.
                let joined = order.flatMap(\.0)
                var parts: [(Int, Int)] = []
                for (message, _) in order { parts.append(((parts.last.map { $0.0 + $0.1 }) ?? 0, message.count)) }
                let got = Self.batch(parts, lanes: lanes, of: joined).map(\.hex)
                #expect(got == order.map(\.1), "lanes \(lanes), starting at example \(shift)")
            }
        }
    }

    @Test("verify over chunks hashed several lines at once: lines of 3 to 7 blocks, the same head; one byte changed breaks the chain at the next line")
    func verifyLog() throws {
        let dir = try TempDir("lanes")
        defer { dir.cleanup() }
        // Over LogReader.serialBytes, so the chunks go to the workers (LinePipeline).
        var lines: [[UInt8]] = []
        var prev = Envelope.genesis
        for k in 1...6_000 {
            // user, device and id of many lengths: lines of 3 to 7 blocks.
            let user = "u" + String(repeating: "r", count: (k * 37) % 127)
            let device = "d" + String(repeating: "y", count: (k * 53) % 127)
            let event = try LineCodec.decodeNewEvent(Array(
                #"{"at":"2025-10-21T08:15:00+03:00","user":"\#(user)","device":"\#(device)","type":"hints.granted","data":{"amount":1,"reason":"seed"}}"#.utf8))
            let id = "e-\(k)-" + String(repeating: "z", count: (k * 11) % 50)
            let line = LineCodec.encode(event.sealed(seq: k, id: id, prev: prev))
            lines.append(line)
            prev = SHA256.hash(line).hex
        }
        #expect(Set(lines.map { ($0.count + 9) / 64 }).count >= 5, "lines of many block counts")
        let path = dir.file("lanes.log")
        try Files.write(path, lines.flatMap { $0 + [0x0A] })
        #expect(lines.reduce(0) { $0 + $1.count + 1 } > LogReader.serialBytes)
        let report = try verify(path: path)
        #expect(report.isOK, "\(String(describing: report.problem))")
        #expect(report.events == 6_000)
        #expect(report.head == Head(seq: 6_000, sha256: SHA256.hash(lines[5_999])))

        // A `y` of line 4,000's device made a `w`: the line still decodes, the next one's prev no longer matches.
        var changed = lines
        guard let device = changed[3_999].firstRange(of: Array(#""device":"dy"#.utf8)) else {
            Issue.record("no y in line 4000's device"); return
        }
        changed[3_999][device.upperBound - 1] = UInt8(ascii: "w")
        try Files.write(path, changed.flatMap { $0 + [0x0A] })
        let broken = try verify(path: path)
        #expect(broken.problem?.description.hasPrefix("line 4001: broken_chain") == true, "\(String(describing: broken.problem))")
        #expect(broken.events == 4_000)
    }
}
