import Foundation
import Simulation
import Testing
@testable import Ledger

@Suite("SHA-256")
struct SHA256Tests {
    /// The FIPS 180-4 example vectors (NIST CSRC "SHA256.pdf", "SHA256_2.pdf"; the million-'a' vector).
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func nistVectors(message: String, expected: String) {
        #expect(SHA256.hash(Array(message.utf8)).hex == expected)
    }

    @Test func oneMillionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hash(message).hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Hashing in pieces, split anywhere, gives the one-shot digest (block and padding edges included).
    @Test func incrementalMatchesOneShot() {
        var rng = SplitMix64(seed: 42)
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 1000] {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let expected = SHA256.hash(message)
            var hasher = SHA256()
            var i = 0
            while i < length {
                let n = Int.random(in: 1...70, using: &rng)
                let end = min(length, i + n)
                hasher.update(message[i..<end])
                i = end
            }
            #expect(hasher.finalize() == expected, "length \(length)")
        }
    }

    @Test func digestHexRoundTrip() throws {
        let d = SHA256.hash(Array("abc".utf8))
        #expect(SHA256.Digest(hex: d.hex) == d)
        #expect(SHA256.Digest(hex: d.hex.uppercased()) == d)
        #expect(SHA256.Digest(hex: String(d.hex.dropLast())) == nil)
        #expect(SHA256.Digest(hex: d.hex + "0") == nil)
        #expect(SHA256.Digest(hex: "g" + d.hex.dropFirst()) == nil)
        #expect(SHA256.Digest.zero.hex == String(repeating: "0", count: 64))
        #expect(d.bytes.count == 32 && d.bytes[0] == 0xba && d.bytes[31] == 0xad)
    }

    /// Agreement with coreutils `sha256sum` on real log lines (and odd lengths).
    @Test func agreesWithSha256sum() throws {
        let dir = try TempDir("sha")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...5))
        writer.close()
        var samples = try Files.lines(log)
        var rng = SplitMix64(seed: 7)
        for length in [0, 55, 56, 64, 200, 4097] {
            samples.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) })
        }
        var paths: [String] = []
        for (k, sample) in samples.enumerated() {
            let p = dir.file("sample-\(k)")
            try Files.write(p, sample)
            paths.append(p)
        }
        let result = try run("/usr/bin/sha256sum", paths)
        #expect(result.status == 0)
        let sums = result.out.split(separator: "\n").map { String($0.prefix(64)) }
        #expect(sums.count == samples.count)
        for (sample, sum) in zip(samples, sums) {
            #expect(SHA256.hash(sample).hex == sum)
        }
    }
}
