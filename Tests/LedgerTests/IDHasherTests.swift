import Events
import Simulation
import Testing
@testable import Ledger

/// The readers' id hash (``IDHasher``: SipHash-1-3, written out for ids) and
/// the inline id (``LineID``), against a reference written from the SipHash
/// paper byte by byte, itself checked on the paper's SipHash-2-4 vector.
@Suite("Reader id hash and inline id")
struct IDHasherTests {
    /// SipHash-c-d of `message` under `key`, as the paper describes it: the
    /// message padded with zeros to 8k - 1 bytes, then its length mod 256.
    static func reference(c: Int, d: Int, key: (UInt64, UInt64), _ message: [UInt8]) -> UInt64 {
        func rotl(_ x: UInt64, _ b: UInt64) -> UInt64 { (x << b) | (x >> (64 - b)) }
        var v = [key.0 ^ 0x736f6d6570736575, key.1 ^ 0x646f72616e646f6d,
                 key.0 ^ 0x6c7967656e657261, key.1 ^ 0x7465646279746573]
        func sipRound() {
            v[0] = v[0] &+ v[1]; v[2] = v[2] &+ v[3]; v[1] = rotl(v[1], 13); v[3] = rotl(v[3], 16)
            v[1] ^= v[0]; v[3] ^= v[2]; v[0] = rotl(v[0], 32)
            v[2] = v[2] &+ v[1]; v[0] = v[0] &+ v[3]; v[1] = rotl(v[1], 17); v[3] = rotl(v[3], 21)
            v[1] ^= v[2]; v[3] ^= v[0]; v[2] = rotl(v[2], 32)
        }
        var padded = message
        while padded.count % 8 != 7 { padded.append(0) }
        padded.append(UInt8(message.count % 256))
        for block in stride(from: 0, to: padded.count, by: 8) {
            var m: UInt64 = 0
            for j in (0..<8).reversed() { m = m << 8 | UInt64(padded[block + j]) }
            v[3] ^= m
            for _ in 0..<c { sipRound() }
            v[0] ^= m
        }
        v[2] ^= 0xff
        for _ in 0..<d { sipRound() }
        return v[0] ^ v[1] ^ v[2] ^ v[3]
    }

    static let paperKey: (UInt64, UInt64) = (0x0706050403020100, 0x0f0e0d0c0b0a0908)

    @Test("the reference gives the paper's SipHash-2-4 vector")
    func referenceMatchesPaper() {
        #expect(Self.reference(c: 2, d: 4, key: Self.paperKey, Array(0..<15)) == 0xa129ca6149be45e5)
    }

    @Test("IDHasher is SipHash-1-3 of the bytes, for every length to 80 and any key")
    func hashIsSipHash13() {
        var rng = SplitMix64(seed: 36)
        for key in [Self.paperKey, (rng.next(), rng.next()), (0, 0)] {
            let hasher = IDHasher(key: key)
            for n in 0...80 {
                let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                let got = bytes.withUnsafeBytes { hasher.hash($0) }
                #expect(got == Self.reference(c: 1, d: 3, key: key, bytes), "length \(n)")
            }
        }
    }

    @Test("an inline id hashes as its bytes, at every length; its unused bytes are zero")
    func lineIDHashAndBytes() throws {
        let hasher = IDHasher(key: Self.paperKey)
        let alphabet = Array("ABCxyz019._:-".utf8)
        var rng = SplitMix64(seed: 7)
        for n in 1...64 {
            let id = (0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            // Inside a longer line, so that reads past the id would see other bytes.
            let line = Array(repeating: UInt8(ascii: "#"), count: 5) + id + Array(repeating: UInt8(ascii: "#"), count: 5)
            let lineID = try #require(line.withUnsafeBytes { LineID(UnsafeRawBufferPointer(rebasing: $0[5..<(5 + n)])) })
            #expect(lineID.count == n)
            #expect(lineID.withBytes { Array($0) } == id)
            #expect(lineID.withPaddedBytes { Array($0[n...]) } == Array(repeating: 0, count: 64 - n))
            #expect(hasher.hash(lineID) == Self.reference(c: 1, d: 3, key: Self.paperKey, id), "length \(n)")
            #expect(lineID == LineID(String(decoding: id, as: UTF8.self)))
            // Reassigned in place from a longer id, it is the same as made afresh.
            var reused = try #require(LineID(String(repeating: "z", count: 64)))
            #expect(line.withUnsafeBytes { reused.assign(UnsafeRawBufferPointer(rebasing: $0[5..<(5 + n)])) })
            #expect(reused == lineID)
        }
        #expect(Array(repeating: UInt8(ascii: "a"), count: 65).withUnsafeBytes { LineID($0) } == nil)
    }

    @Test("a redaction stub never keeps the envelope's rules (so it is looked for only after the check fails)")
    func stubFailsTheCheck() {
        let hex = String(repeating: "ab", count: 32)
        for seq in [1, 9, 10, 4_567, Int.max] {
            let stub = RedactionStub(seq: seq, redacted: hex, prev: String(repeating: "0", count: 64)).encoded()
            stub.withUnsafeBytes { line in
                #expect(RedactionStub.parts(line) != nil)
                #expect(throws: EventError.self) { try LineCodec.checkRecord(line) }
            }
        }
    }
}
