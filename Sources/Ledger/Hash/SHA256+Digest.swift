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

        /// The word holding bytes `8 * i ..< 8 * i + 8`.
        @inline(__always) private func word(_ i: Int) -> UInt64 {
            switch i { case 0: w0; case 1: w1; case 2: w2; default: w3 }
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

        /// The hex digits.
        public var description: String { hex }
    }
}
