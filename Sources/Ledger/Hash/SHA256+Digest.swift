extension SHA256 {
    /// A SHA-256 digest: 32 bytes, printed as 64 lowercase hex digits.
    public struct Digest: Hashable, Sendable, CustomStringConvertible {
        // The 32 bytes, big-endian, in four words: cheap to compare and hash.
        private var w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

        init(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32,
             _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: UInt32) {
            w0 = UInt64(a) << 32 | UInt64(b); w1 = UInt64(c) << 32 | UInt64(d)
            w2 = UInt64(e) << 32 | UInt64(f); w3 = UInt64(g) << 32 | UInt64(h)
        }

        /// All zeros: the `prev` of the first line (`Envelope.genesis`).
        public static let zero = Digest(0, 0, 0, 0, 0, 0, 0, 0)

        /// Parses 64 hex digits (either case); nil for anything else.
        ///
        /// Called once per line to compare `prev`: no allocation.
        public init?<S: StringProtocol>(hex: S) {
            var w: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            var n = 0
            for c in hex.utf8 {
                let v: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c &- UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c &- UInt8(ascii: "a") &+ 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c &- UInt8(ascii: "A") &+ 10
                default: return nil
                }
                switch n >> 4 {
                case 0: w.0 = w.0 << 4 | UInt64(v)
                case 1: w.1 = w.1 << 4 | UInt64(v)
                case 2: w.2 = w.2 << 4 | UInt64(v)
                case 3: w.3 = w.3 << 4 | UInt64(v)
                default: return nil  // more than 64 digits
                }
                n += 1
            }
            guard n == 64 else { return nil }
            (w0, w1, w2, w3) = w
        }

        /// The digest whose 32 bytes (as printed) are these four words' bytes in memory order.
        @inline(__always)
        init(inMemoryOrder w: (UInt64, UInt64, UInt64, UInt64)) {
            w0 = UInt64(bigEndian: w.0); w1 = UInt64(bigEndian: w.1)
            w2 = UInt64(bigEndian: w.2); w3 = UInt64(bigEndian: w.3)
        }

        /// The word holding bytes `8 * i ..< 8 * i + 8`.
        @inline(__always) private func word(_ i: Int) -> UInt64 {
            switch i { case 0: w0; case 1: w1; case 2: w2; default: w3 }
        }

        /// The digest whose 32 bytes are `bytes`; nil for any other length.
        public init?(bytes: some Collection<UInt8>) {
            guard bytes.count == 32 else { return nil }
            var w: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            for (i, b) in bytes.enumerated() {
                switch i >> 3 {
                case 0: w.0 = w.0 << 8 | UInt64(b)
                case 1: w.1 = w.1 << 8 | UInt64(b)
                case 2: w.2 = w.2 << 8 | UInt64(b)
                default: w.3 = w.3 << 8 | UInt64(b)
                }
            }
            (w0, w1, w2, w3) = w
        }

        /// Writes the 32 bytes to `out` (the Merkle tree's hashes hash digests without making arrays).
        @inline(__always)
        func store(to out: UnsafeMutableRawPointer) {
            out.storeBytes(of: w0.bigEndian, toByteOffset: 0, as: UInt64.self)
            out.storeBytes(of: w1.bigEndian, toByteOffset: 8, as: UInt64.self)
            out.storeBytes(of: w2.bigEndian, toByteOffset: 16, as: UInt64.self)
            out.storeBytes(of: w3.bigEndian, toByteOffset: 24, as: UInt64.self)
        }

        /// The 32 bytes.
        public var bytes: [UInt8] {
            (0..<32).map { i in UInt8(truncatingIfNeeded: word(i >> 3) >> UInt64(56 - 8 * (i & 7))) }
        }

        /// 64 lowercase hex digits.
        public var hex: String {
            String(unsafeUninitializedCapacity: 64) { out in
                for i in 0..<64 {
                    let nibble = UInt8(truncatingIfNeeded: word(i >> 4) >> UInt64(60 - 4 * (i & 15))) & 0xF
                    out[i] = nibble < 10 ? nibble &+ UInt8(ascii: "0") : nibble &- 10 &+ UInt8(ascii: "a")
                }
                return 64
            }
        }

        /// Writes ``hex``'s 64 digits to `out` (64 bytes) without making a `String`: the writer's `prev`.
        func writeHex(to out: UnsafeMutablePointer<UInt8>) {
            let raw = UnsafeMutableRawPointer(out)
            for i in 0..<4 {
                let w = word(i)
                raw.storeBytes(of: Digest.hexDigits(UInt32(truncatingIfNeeded: w >> 32)), toByteOffset: 16 * i, as: UInt64.self)
                raw.storeBytes(of: Digest.hexDigits(UInt32(truncatingIfNeeded: w)), toByteOffset: 16 * i + 8, as: UInt64.self)
            }
        }

        /// The 8 lowercase hex digits of `v`, most significant first in memory.
        @inline(__always)
        static func hexDigits(_ v: UInt32) -> UInt64 {
            // One nibble a byte, the most significant in the highest byte...
            var x = UInt64(v)
            x = (x & 0xFFFF_0000) << 16 | (x & 0xFFFF)
            x = (x & 0x0000_FF00_0000_FF00) << 8 | (x & 0x0000_00FF_0000_00FF)
            x = (x & 0x00F0_00F0_00F0_00F0) << 4 | (x & 0x000F_000F_000F_000F)
            // ...then '0'-'9' or 'a'-'f' (+39 more for a nibble >= 10), stored most significant first.
            let letters = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
            x = x &+ 0x3030_3030_3030_3030 &+ letters &* 39
            return x.byteSwapped.littleEndian
        }

        /// The hex digits.
        public var description: String { hex }
    }
}
