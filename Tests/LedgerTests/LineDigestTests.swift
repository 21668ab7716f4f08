import Simulation
import Testing
@testable import Ledger

@Suite("SHA-256 with the CPU's SHA instructions")
struct LineDigestTests {
    /// Seeded bytes (SplitMix64), so a failure can be replayed.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    }

    @Test("the same digest as the Swift SHA-256 for every length up to 4 blocks and some large ones")
    func sameDigests() {
        var lengths = Array(0...300)
        lengths += [511, 512, 513, 1023, 1024, 4096, 65_537, 1_048_576]
        for n in lengths {
            let data = Self.bytes(n, seed: UInt64(n))
            let expected = SHA256.hash(data)
            data.withUnsafeBytes { b in
                #expect(LineDigest.of(b) == expected, "length \(n)")
                if LineDigest.hardware, let base = b.baseAddress {
                    #expect(LineDigest.hardwareDigest(base, n) == expected, "length \(n), SHA instructions")
                }
            }
        }
    }

    @Test("the FIPS 180-4 examples")
    func knownAnswers() {
        let cases: [(String, String)] = [
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ]
        for (text, hex) in cases {
            Array(text.utf8).withUnsafeBytes { b in
                #expect(LineDigest.of(b).hex == hex, "\(text)")
                if LineDigest.hardware, let base = b.baseAddress ?? UnsafeRawPointer(bitPattern: 1) {
                    #expect(LineDigest.hardwareDigest(base, b.count).hex == hex, "\(text), SHA instructions")
                }
            }
        }
        print("SHA instructions on this CPU: \(LineDigest.hardware)")
    }
}
