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
        public init?<S: StringProtocol>(hex: S) {
            var words: [UInt64] = [0, 0, 0, 0]
            var n = 0
            for c in hex.utf8 {
                let v: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
                default: return nil
                }
                guard n < 64 else { return nil }
                words[n / 16] = words[n / 16] << 4 | UInt64(v)
                n += 1
            }
            guard n == 64 else { return nil }
            w0 = words[0]; w1 = words[1]; w2 = words[2]; w3 = words[3]
        }

        /// The 32 bytes.
        public var bytes: [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(32)
            for w in [w0, w1, w2, w3] {
                for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: w >> UInt64(shift))) }
            }
            return out
        }

        /// 64 lowercase hex digits.
        public var hex: String {
            let digits: StaticString = "0123456789abcdef"
            let words = (w0, w1, w2, w3)
            return String(unsafeUninitializedCapacity: 64) { out in
                digits.withUTF8Buffer { d in
                    var i = 0
                    for w in [words.0, words.1, words.2, words.3] {
                        for shift in stride(from: 60, through: 0, by: -4) {
                            out[i] = d[Int((w >> UInt64(shift)) & 0xF)]
                            i += 1
                        }
                    }
                }
                return 64
            }
        }

        /// The hex digits.
        public var description: String { hex }
    }
}
