/// Writes compact JSON bytes: no insignificant whitespace, strings escaped
/// minimally (`"`, `\`, and control characters below U+0020). The one JSON
/// encoder of the package: log lines (``LineCodec/encode(_:)``, the writer's
/// sealed lines through ``PendingLine``) and the JSON of `state`, `report`
/// and `audit`.
///
/// The bytes go into one buffer through a ``Cursor`` (a pointer and a
/// count, no `Array` append per token). A cursor that runs out of room stops;
/// the writer then doubles the buffer and runs the same write again from
/// where it started, so a write never needs an estimate to be right.
package struct JSONWriter {
    /// The buffer: `count` bytes written, the rest room (never read).
    private var storage: [UInt8]
    /// Bytes written so far.
    private var count = 0

    /// Makes an empty writer with room for `capacity` bytes.
    package init(capacity: Int = 256) {
        storage = JSONWriter.buffer(max(capacity, 16))
    }

    /// The bytes written so far (the buffer itself, cut to them).
    package var bytes: [UInt8] {
        mutating get {
            if storage.count > count { storage.removeLast(storage.count - count) }
            return storage
        }
    }

    /// A buffer of `n` bytes, left uninitialized: only written bytes are read.
    private static func buffer(_ n: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
    }

    /// Runs `body` with a cursor at the end of the bytes; when it runs out of
    /// room, doubles the buffer and runs `body` again from the same place.
    @inline(__always)
    package mutating func write(_ body: (inout Cursor) -> Void) {
        while true {
            let start = count
            let end: Int? = storage.withUnsafeMutableBufferPointer { b in
                guard let base = b.baseAddress else { return nil }
                var c = Cursor(base: base, capacity: b.count, count: start)
                body(&c)
                return c.overflowed ? nil : c.count
            }
            if let end { count = end; return }
            let used = count, old = storage
            storage = JSONWriter.buffer(old.count * 2)
            storage.withUnsafeMutableBytes { to in
                old.withUnsafeBytes { to.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<used])) }
            }
        }
    }

    /// Writes bytes as they are (punctuation, member names with their quotes).
    package mutating func raw(_ s: StaticString) { write { $0.raw(s) } }
    /// Writes one byte as it is.
    package mutating func byte(_ b: UInt8) { write { $0.byte(b) } }
    /// Writes text that needs no escape as it is (a number's literal).
    package mutating func literal(_ s: String) { write { $0.literal(s) } }
    /// Writes a JSON string literal.
    package mutating func string(_ s: String) { write { $0.string(s) } }
    /// Writes an integer.
    package mutating func integer(_ n: Int) { write { $0.integer(n) } }
    /// Writes `true` or `false`.
    package mutating func bool(_ b: Bool) { write { $0.bool(b) } }
    /// Writes a JSON value, members in their order.
    package mutating func value(_ v: JSONValue) { write { $0.value(v) } }

    /// A place in a writer's buffer: each write checks the room once and
    /// copies; a write that does not fit sets ``overflowed`` and the bytes
    /// are then incomplete (the writer starts again with more room).
    package struct Cursor {
        private let base: UnsafeMutablePointer<UInt8>
        private let capacity: Int
        /// Where the next byte goes.
        private(set) var count: Int
        /// Whether a write did not fit.
        private(set) var overflowed = false

        init(base: UnsafeMutablePointer<UInt8>, capacity: Int, count: Int) {
            self.base = base
            self.capacity = capacity
            self.count = count
        }

        @inline(__always) mutating func copy(_ u: UnsafeBufferPointer<UInt8>) {
            guard let source = u.baseAddress else { return }
            guard count &+ u.count <= capacity else { overflowed = true; return }
            (base + count).update(from: source, count: u.count)
            count &+= u.count
        }

        @inline(__always) package mutating func byte(_ b: UInt8) {
            guard count < capacity else { overflowed = true; return }
            base[count] = b
            count &+= 1
        }

        @inline(__always) package mutating func raw(_ token: StaticString) {
            copy(UnsafeBufferPointer(start: token.utf8Start, count: token.utf8CodeUnitCount))
        }

        package mutating func literal(_ s: String) {
            var s = s
            s.withUTF8 { copy($0) }
        }

        @inline(__always) package mutating func bool(_ b: Bool) {
            if b { raw("true") } else { raw("false") }
        }

        package mutating func integer(_ n: Int) {
            guard count &+ 21 <= capacity else { overflowed = true; return }
            if n >= 0, n < 10 {
                base[count] = UInt8(truncatingIfNeeded: n) &+ 48
                count &+= 1
                return
            }
            var digits = 0
            var m = n.magnitude
            repeat { digits &+= 1; m /= 10 } while m > 0
            if n < 0 { base[count] = UInt8(ascii: "-"); count &+= 1 }
            m = n.magnitude
            var k = count &+ digits
            repeat {
                k &-= 1
                base[k] = UInt8(truncatingIfNeeded: m % 10) &+ 48
                m /= 10
            } while m > 0
            count &+= digits
        }

        package mutating func string(_ s: String) {
            var s = s
            s.withUTF8 { string($0) }
        }

        /// A JSON string literal of the UTF-8 `u`: runs without escapes copied at once.
        private mutating func string(_ u: UnsafeBufferPointer<UInt8>) {
            byte(UInt8(ascii: "\""))
            var start = 0
            var k = 0
            let n = u.count
            while k < n {
                if k &+ 8 <= n {
                    let word = UnsafeRawBufferPointer(u).loadUnaligned(fromByteOffset: k, as: UInt64.self)
                    let mask = JSONScanner.specialBytes(word, orNonASCII: false)
                    if mask == 0 { k &+= 8; continue }
                    k &+= mask.trailingZeroBitCount &>> 3
                }
                let c = u[k]
                guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { k &+= 1; continue }
                copy(UnsafeBufferPointer(rebasing: u[start..<k]))
                switch c {
                case UInt8(ascii: "\""): raw(#"\""#)
                case UInt8(ascii: "\\"): raw(#"\\"#)
                case 0x0A: raw(#"\n"#)
                case 0x0D: raw(#"\r"#)
                case 0x09: raw(#"\t"#)
                case 0x08: raw(#"\b"#)
                case 0x0C: raw(#"\f"#)
                default:
                    let hex: StaticString = "0123456789abcdef"
                    raw(#"\u00"#)
                    byte(hex.utf8Start[Int(c >> 4)])
                    byte(hex.utf8Start[Int(c & 0xF)])
                }
                k &+= 1
                start = k
            }
            copy(UnsafeBufferPointer(rebasing: u[start..<n]))
            byte(UInt8(ascii: "\""))
        }

        package mutating func value(_ v: JSONValue) {
            switch v {
            case .null: raw("null")
            case .bool(let b): bool(b)
            case .number(let literal): self.literal(literal)
            case .string(let s): string(s)
            case .array(let items):
                byte(UInt8(ascii: "["))
                for (k, item) in items.enumerated() {
                    if k > 0 { byte(UInt8(ascii: ",")) }
                    value(item)
                }
                byte(UInt8(ascii: "]"))
            case .object(let members):
                byte(UInt8(ascii: "{"))
                for (k, m) in members.enumerated() {
                    if k > 0 { byte(UInt8(ascii: ",")) }
                    string(m.name)
                    byte(UInt8(ascii: ":"))
                    value(m.value)
                }
                byte(UInt8(ascii: "}"))
            }
        }

        /// Members after at least one other member of their object.
        mutating func members(_ members: some Sequence<JSONMember>) {
            for m in members {
                byte(UInt8(ascii: ","))
                string(m.name)
                byte(UInt8(ascii: ":"))
                value(m.value)
            }
        }
    }
}

/// Writes the members of one object in order, handling the commas.
package struct ObjectWriter {
    private var first = true

    /// Starts an object.
    package init(_ w: inout JSONWriter) { w.byte(UInt8(ascii: "{")) }

    /// Writes a member name (and the comma before it when needed).
    package mutating func key(_ w: inout JSONWriter, _ name: StaticString) {
        let comma = !first
        first = false
        w.write { c in
            if comma { c.byte(UInt8(ascii: ",")) }
            c.byte(UInt8(ascii: "\""))
            c.raw(name)
            c.raw("\":")
        }
    }

    /// Writes a member whose name is dynamic.
    package mutating func key(_ w: inout JSONWriter, name: String) {
        let comma = !first
        first = false
        w.write { c in
            if comma { c.byte(UInt8(ascii: ",")) }
            c.string(name)
            c.byte(UInt8(ascii: ":"))
        }
    }

    /// Ends the object.
    package func end(_ w: inout JSONWriter) { w.byte(UInt8(ascii: "}")) }
}
