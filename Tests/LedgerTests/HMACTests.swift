import Testing
@testable import Ledger

/// HMAC-SHA-256 against RFC 4231's test vectors (written by others, computed elsewhere).
@Suite("HMAC-SHA-256")
struct HMACTests {
    static func hex(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var it = text.utf8.makeIterator()
        while let hi = it.next(), let lo = it.next() { out.append(UInt8(String(decoding: [hi, lo], as: UTF8.self), radix: 16) ?? 0) }
        return out
    }

    static func code(_ key: [UInt8], _ message: [UInt8]) -> String {
        HMACSHA256(key: key).authenticationCode(for: message).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test("RFC 4231 test case 1: a 20-byte key")
    func case1() {
        #expect(Self.code([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test("RFC 4231 test case 2: a key shorter than the output")
    func case2() {
        #expect(Self.code(Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("RFC 4231 test case 6: a key larger than the block is hashed first")
    func case6() {
        #expect(Self.code([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test("RFC 4231 test case 7: a long key and a long message")
    func case7() {
        let message = "This is a test using a larger than block-size key and a larger than block-size data. "
            + "The key needs to be hashed before being used by the HMAC algorithm."
        #expect(Self.code([UInt8](repeating: 0xaa, count: 131), Array(message.utf8))
                == "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2")
    }

    @Test("equal in constant time: equal bytes only, any length")
    func constantTime() {
        #expect(HMACSHA256.equalInConstantTime([1, 2, 3], [1, 2, 3]))
        #expect(!HMACSHA256.equalInConstantTime([1, 2, 3], [1, 2, 4]))
        #expect(!HMACSHA256.equalInConstantTime([1, 2, 3], [1, 2]))
        #expect(HMACSHA256.equalInConstantTime([], []))
    }
}
