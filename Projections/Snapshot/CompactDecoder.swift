import Events

/// Reads a value written by ``CompactEncoder``.
///
/// Fields are read in the order they were written, and each key is checked:
/// a mismatch, a wrong tag, a truncated input or trailing bytes throw a
/// `DecodingError` (never a crash, whatever the bytes).
package struct CompactDecoder {
    /// Whether types with a hand-written fast path use it.
    package var fastPaths = true

    /// Makes a decoder.
    package init() {}

    /// The value of type `T` in `bytes`, which must hold exactly one value.
    package func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { raw in
            let source = CompactSource(raw)
            source.fastPaths = fastPaths
            let value = try source.read(T.self, depth: 0)
            try source.close(from: 0)
            guard source.position == raw.count else {
                throw source.corrupted("\(raw.count - source.position) bytes after the value")
            }
            return value
        }
    }
}

/// The bytes being read, the position, and the open containers, shared by
/// every decoder and container of one `decode` call.
final class CompactSource {
    enum Kind { case keyed, unkeyed }

    struct Frame {
        var kind: Kind
        /// For `unkeyed`: the count, and how many values are left.
        var count: Int
        var remaining: Int
    }

    let bytes: UnsafeRawBufferPointer
    // One source serves one `decode` call on one thread: the run-time exclusivity
    // checks Swift makes on class properties are not needed.
    @exclusivity(unchecked) var position = 0
    /// Whether hand-written fast paths may read instead of `Codable`.
    var fastPaths = true
    /// `frames[d]` is the container opened by the decoder at depth `d`.
    @exclusivity(unchecked) var frames: [Frame] = []

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func corrupted(_ message: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "at byte \(position): \(message)"))
    }

    // MARK: bytes

    @inline(__always)
    func peek() throws -> UInt8 {
        guard position < bytes.count else { throw corrupted("unexpected end of the data") }
        return bytes[position]
    }

    @inline(__always)
    func byte() throws -> UInt8 {
        let b = try peek()
        position += 1
        return b
    }

    @inline(__always)
    func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw corrupted("an integer longer than 64 bits") }
            value |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return value }
            shift += 7
        }
    }

    /// A byte count followed by that many bytes: returns where they start.
    @inline(__always)
    func span() throws -> (start: Int, count: Int) {
        let n = try varint()
        guard n <= UInt64(bytes.count - position) else { throw corrupted("a length past the end of the data") }
        let start = position
        position += Int(n)
        return (start, Int(n))
    }

    @inline(__always)
    func expect(_ tag: CompactFormat.Tag, _ what: @autoclosure () -> String) throws {
        let b = try byte()
        guard b == tag.rawValue else {
            position -= 1
            throw corrupted("expected \(what()), found tag \(b)")
        }
    }

    // MARK: containers

    /// Closes the containers at depth `depth` and deeper, skipping what their readers left unread.
    @inline(__always)
    func close(from depth: Int) throws {
        while frames.count > depth {
            let frame = frames[frames.count - 1]
            switch frame.kind {
            case .keyed:
                while try peek() != CompactFormat.Tag.end.rawValue {
                    try expect(.key, "a key or the end of an object")
                    _ = try span()
                    try skipValue(depth: frames.count)
                }
                position += 1
            case .unkeyed:
                for _ in 0..<frame.remaining { try skipValue(depth: frames.count) }
            }
            frames.removeLast()
        }
    }

    /// Opens the container of the decoder at `depth` (a second request returns the same one).
    func open(_ kind: Kind, depth: Int) throws {
        try close(from: depth + 1)
        if frames.count == depth + 1 {
            guard frames[depth].kind == kind else { throw corrupted("a value asked for both a keyed and an unkeyed container") }
            return
        }
        guard frames.count == depth else { throw corrupted("a container was requested out of order") }
        guard depth < CompactFormat.maxDepth else { throw corrupted("nested deeper than \(CompactFormat.maxDepth)") }
        switch kind {
        case .keyed:
            try expect(.keyed, "an object")
            frames.append(Frame(kind: .keyed, count: 0, remaining: 0))
        case .unkeyed:
            try expect(.unkeyed, "an array")
            let n = try arrayCount()
            frames.append(Frame(kind: .unkeyed, count: n, remaining: n))
        }
    }

    /// Skips one value of any kind.
    func skipValue(depth: Int) throws {
        guard depth < CompactFormat.maxDepth else { throw corrupted("nested deeper than \(CompactFormat.maxDepth)") }
        let b = try byte()
        guard let tag = CompactFormat.Tag(rawValue: b) else { position -= 1; throw corrupted("unknown tag \(b)") }
        switch tag {
        case .null, .false, .true: return
        case .int, .uint: _ = try varint()
        case .double: try skip(8)
        case .float: try skip(4)
        case .string: _ = try span()
        case .keyed:
            while try peek() != CompactFormat.Tag.end.rawValue {
                try expect(.key, "a key or the end of an object")
                _ = try span()
                try skipValue(depth: depth + 1)
            }
            position += 1
        case .unkeyed:
            let n = try arrayCount()
            for _ in 0..<n { try skipValue(depth: depth + 1) }
        case .end, .key:
            position -= 1
            throw corrupted("expected a value, found tag \(b)")
        }
    }

    /// The 4-byte count after an `unkeyed` tag.
    func arrayCount() throws -> Int {
        guard bytes.count - position >= 4 else { throw corrupted("unexpected end of the data") }
        let n = Int(bytes[position]) | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2]) << 16
            | Int(bytes[position + 3]) << 24
        position += 4
        // Every value takes at least one byte: a count beyond the data is damage.
        guard n <= bytes.count - position else { throw corrupted("an array of \(n) values in \(bytes.count - position) bytes") }
        return n
    }

    private func skip(_ n: Int) throws {
        guard bytes.count - position >= n else { throw corrupted("unexpected end of the data") }
        position += n
    }

    // MARK: keys

    /// Whether the next item is the key `name` (nothing is consumed); returns the position after it.
    @inline(__always)
    func peekKey(_ name: String) -> Int? {
        guard position < bytes.count, bytes[position] == CompactFormat.Tag.key.rawValue else { return nil }
        let saved = position
        defer { position = saved }
        position += 1
        guard let (start, count) = try? span() else { return nil }
        var s = name
        let same = s.withUTF8 { expected in
            expected.count == count && (count == 0 || memoryEqual(expected, start))
        }
        return same ? position : nil
    }

    @inline(__always)
    private func memoryEqual(_ expected: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
        for i in 0..<expected.count where expected[i] != bytes[start + i] { return false }
        return true
    }

    /// Consumes the key `name`, or throws naming the key found instead.
    @inline(__always)
    func expectKey(_ name: String) throws {
        if let after = peekKey(name) {
            position = after
            return
        }
        guard position < bytes.count, bytes[position] == CompactFormat.Tag.key.rawValue else {
            if position < bytes.count, bytes[position] == CompactFormat.Tag.end.rawValue {
                throw DecodingError.keyNotFound(AnyKey(name), DecodingError.Context(
                    codingPath: [], debugDescription: "at byte \(position): field \(name.debugDescription) is missing"))
            }
            throw corrupted("expected field \(name.debugDescription)")
        }
        let saved = position
        position += 1
        let (start, count) = try span()
        let found = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]), as: UTF8.self)
        position = saved
        throw corrupted("expected field \(name.debugDescription), found \(found.debugDescription) (written by another version?)")
    }

    /// The keys left in the current object, in order (nothing is consumed).
    func remainingKeys() throws -> [String] {
        let saved = position
        defer { position = saved }
        var keys: [String] = []
        while try peek() != CompactFormat.Tag.end.rawValue {
            try expect(.key, "a key or the end of an object")
            let (start, count) = try span()
            keys.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]), as: UTF8.self))
            try skipValue(depth: frames.count)
        }
        return keys
    }

    // MARK: primitives

    /// Whether the next value is `nil` (consumed if so).
    @inline(__always)
    func takeNil() -> Bool {
        guard position < bytes.count, bytes[position] == CompactFormat.Tag.null.rawValue else { return false }
        position += 1
        return true
    }

    func readBool() throws -> Bool {
        switch try byte() {
        case CompactFormat.Tag.false.rawValue: return false
        case CompactFormat.Tag.true.rawValue: return true
        case let b: position -= 1; throw corrupted("expected a bool, found tag \(b)")
        }
    }

    func readString() throws -> String {
        try expect(.string, "a string")
        let (start, count) = try span()
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]), as: UTF8.self)
    }

    func readDouble() throws -> Double {
        let b = try byte()
        switch b {
        case CompactFormat.Tag.double.rawValue:
            guard bytes.count - position >= 8 else { throw corrupted("unexpected end of the data") }
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(bytes[position + i]) << UInt64(8 * i) }
            position += 8
            return Double(bitPattern: bits)
        case CompactFormat.Tag.float.rawValue:
            position -= 1
            return Double(try readFloat())
        default:
            position -= 1
            throw corrupted("expected a number, found tag \(b)")
        }
    }

    func readFloat() throws -> Float {
        let b = try byte()
        guard b == CompactFormat.Tag.float.rawValue else {
            position -= 1
            if b == CompactFormat.Tag.double.rawValue { return Float(try readDouble()) }
            throw corrupted("expected a number, found tag \(b)")
        }
        guard bytes.count - position >= 4 else { throw corrupted("unexpected end of the data") }
        var bits: UInt32 = 0
        for i in 0..<4 { bits |= UInt32(bytes[position + i]) << UInt32(8 * i) }
        position += 4
        return Float(bitPattern: bits)
    }

    @inline(__always)
    func readInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let b = try byte()
        switch b {
        case CompactFormat.Tag.int.rawValue:
            let z = try varint()
            let v = Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
            guard let result = T(exactly: v) else { throw corrupted("\(v) does not fit \(T.self)") }
            return result
        case CompactFormat.Tag.uint.rawValue:
            let v = try varint()
            guard let result = T(exactly: v) else { throw corrupted("\(v) does not fit \(T.self)") }
            return result
        default:
            position -= 1
            throw corrupted("expected an integer, found tag \(b)")
        }
    }

    // MARK: hand-written fast paths (the same bytes as the Codable path)

    /// Starts an object.
    @inline(__always) func beginObject() throws { try expect(.keyed, "an object") }

    /// Ends an object; fields left unread are an error here (a fast path reads its own version's fields).
    @inline(__always) func endObject() throws { try expect(.end, "the end of an object") }

    /// Reads the key `name`.
    @inline(__always) func field(_ name: StaticString) throws {
        let count = name.utf8CodeUnitCount
        if count < 0x80, position + 2 + count <= bytes.count, bytes[position] == CompactFormat.Tag.key.rawValue,
           bytes[position + 1] == UInt8(truncatingIfNeeded: count) {
            let start = position + 2
            var i = 0
            while i < count, bytes[start + i] == name.utf8Start[i] { i += 1 }
            if i == count {
                position = start + count
                return
            }
        }
        try expectKey(String(describing: name))
    }

    /// Starts an array; returns its count.
    @inline(__always) func beginArray() throws -> Int {
        try expect(.unkeyed, "an array")
        return try arrayCount()
    }

    /// Whether the next value is an empty array (consumed if so).
    @inline(__always) func takeEmptyArray() -> Bool {
        guard position + 5 <= bytes.count, bytes[position] == CompactFormat.Tag.unkeyed.rawValue,
              bytes[position + 1] == 0, bytes[position + 2] == 0, bytes[position + 3] == 0, bytes[position + 4] == 0
        else { return false }
        position += 5
        return true
    }

    /// Reads an `Int`.
    @inline(__always) func readInt() throws -> Int { try readInteger(Int.self) }

    /// Reads an optional string.
    @inline(__always) func readOptionalString() throws -> String? { takeNil() ? nil : try readString() }

    /// Reads an optional `Int`.
    @inline(__always) func readOptionalInt() throws -> Int? { takeNil() ? nil : try readInt() }

    /// Reads an optional bool.
    @inline(__always) func readOptionalBool() throws -> Bool? { takeNil() ? nil : try readBool() }

    /// Reads any value through its `Codable` form, from inside a fast path.
    func readNested<T: Decodable>(_ type: T.Type) throws -> T {
        let depth = frames.count
        let value = try T(from: CompactDecoding(source: self, depth: depth))
        try close(from: depth)
        return value
    }

    /// Reads a nested value whose decoder is at `depth`.
    @inline(__always)
    func read<T: Decodable>(_ type: T.Type, depth: Int) throws -> T {
        // The leaves written directly by `CompactSink.write(_:depth:)`.
        if T.self == Day.self {
            return unsafeBitCast(Day(ordinal: try readInteger(Int.self)), to: T.self)
        } else if T.self == Timestamp.self {
            let text = try readString()
            do { return unsafeBitCast(try Timestamp(parsing: text), to: T.self) } catch {
                throw corrupted("timestamp \(text.debugDescription) \(error)")
            }
        } else if T.self == ExactString.self {
            return unsafeBitCast(ExactString(try readString()), to: T.self)
        }
        return try T(from: CompactDecoding(source: self, depth: depth))
    }
}

/// A coding key made from text (for errors and `allKeys`).
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The `Decoder` handed to each value: its source and its depth.
struct CompactDecoding: Decoder {
    let source: CompactSource
    let depth: Int

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try source.open(.keyed, depth: depth)
        return KeyedDecodingContainer(CompactKeyedDecoding<Key>(source: source, depth: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try source.open(.unkeyed, depth: depth)
        return CompactUnkeyedDecoding(source: source, depth: depth)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        CompactSingleValueDecoding(source: source, depth: depth)
    }
}

/// A keyed container, read in the order written; each key is checked.
struct CompactKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let source: CompactSource
    let depth: Int

    var codingPath: [any CodingKey] { [] }

    /// The keys not read yet, in the order written (reading them in this order works).
    var allKeys: [Key] {
        guard (try? source.close(from: depth + 1)) != nil, let names = try? source.remainingKeys() else { return [] }
        return names.compactMap { Key(stringValue: $0) }
    }

    @inline(__always)
    private func field(_ key: Key) throws {
        try source.close(from: depth + 1)
        try source.expectKey(key.stringValue)
    }

    /// Whether the next field is `key` and present (nothing consumed unless it is nil).
    @inline(__always)
    private func present(_ key: Key) throws -> Bool {
        try source.close(from: depth + 1)
        guard let after = source.peekKey(key.stringValue) else { return false }
        source.position = after
        if source.takeNil() { return false }
        return true
    }

    func contains(_ key: Key) -> Bool {
        guard (try? source.close(from: depth + 1)) != nil else { return false }
        return source.peekKey(key.stringValue) != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try source.close(from: depth + 1)
        guard let after = source.peekKey(key.stringValue) else { return true }
        guard after < source.bytes.count, source.bytes[after] == CompactFormat.Tag.null.rawValue else { return false }
        source.position = after + 1
        return true
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try field(key); return try source.readBool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try field(key); return try source.readString() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try field(key); return try source.readDouble() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try field(key); return try source.readFloat() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try field(key); return try source.readInteger(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try field(key); return try source.readInteger(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try field(key); return try source.readInteger(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try field(key); return try source.readInteger(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try field(key); return try source.readInteger(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try field(key); return try source.readInteger(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try field(key); return try source.readInteger(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try field(key); return try source.readInteger(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try field(key); return try source.readInteger(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try field(key); return try source.readInteger(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try field(key)
        return try source.read(type, depth: depth + 1)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key) ? try source.readBool() : nil }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key) ? try source.readString() : nil }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key) ? try source.readDouble() : nil }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(key) ? try source.readFloat() : nil }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key) ? try source.readInteger(type) : nil }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(key) ? try source.readInteger(type) : nil }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(key) ? try source.readInteger(type) : nil }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(key) ? try source.readInteger(type) : nil }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key) ? try source.readInteger(type) : nil }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(key) ? try source.readInteger(type) : nil }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(key) ? try source.readInteger(type) : nil }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(key) ? try source.readInteger(type) : nil }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(key) ? try source.readInteger(type) : nil }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(key) ? try source.readInteger(type) : nil }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key) ? try source.read(type, depth: depth + 1) : nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                               forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try field(key)
        return try CompactDecoding(source: source, depth: depth + 1).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try field(key)
        return try CompactDecoding(source: source, depth: depth + 1).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try source.close(from: depth + 1)
        try source.expectKey("super")
        return CompactDecoding(source: source, depth: depth + 1)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try field(key)
        return CompactDecoding(source: source, depth: depth + 1)
    }
}

/// A container that gives one value at a time (unkeyed or single-value): the
/// `decode` requirements the two protocols share, written once.
protocol CompactValueDecoding {
    var source: CompactSource { get }
    /// Gets ready for the next value (skips what a previous one left unread).
    func prepare() throws
}

extension CompactValueDecoding {
    func decode(_ type: Bool.Type) throws -> Bool { try prepare(); return try source.readBool() }
    func decode(_ type: String.Type) throws -> String { try prepare(); return try source.readString() }
    func decode(_ type: Double.Type) throws -> Double { try prepare(); return try source.readDouble() }
    func decode(_ type: Float.Type) throws -> Float { try prepare(); return try source.readFloat() }
    func decode(_ type: Int.Type) throws -> Int { try prepare(); return try source.readInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try prepare(); return try source.readInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try prepare(); return try source.readInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try prepare(); return try source.readInteger(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try prepare(); return try source.readInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try prepare(); return try source.readInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try prepare(); return try source.readInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try prepare(); return try source.readInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try prepare(); return try source.readInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try prepare(); return try source.readInteger(type) }
}

/// An unkeyed container: its count, then the values.
struct CompactUnkeyedDecoding: UnkeyedDecodingContainer, CompactValueDecoding {
    let source: CompactSource
    let depth: Int

    var codingPath: [any CodingKey] { [] }
    var count: Int? { source.frames.count > depth ? source.frames[depth].count : 0 }
    var isAtEnd: Bool { source.frames.count <= depth || source.frames[depth].remaining == 0 }
    var currentIndex: Int {
        source.frames.count > depth ? source.frames[depth].count - source.frames[depth].remaining : 0
    }

    /// Skips what the previous element left unread and takes one element, or throws if none is left.
    @inline(__always)
    func prepare() throws {
        try source.close(from: depth + 1)
        guard source.frames.count > depth, source.frames[depth].remaining > 0 else {
            throw DecodingError.valueNotFound(Any.self, DecodingError.Context(
                codingPath: [], debugDescription: "at byte \(source.position): no more values in the array"))
        }
        source.frames[depth].remaining -= 1
    }

    mutating func decodeNil() throws -> Bool {
        try source.close(from: depth + 1)
        guard source.frames.count > depth, source.frames[depth].remaining > 0,
              source.position < source.bytes.count,
              source.bytes[source.position] == CompactFormat.Tag.null.rawValue else { return false }
        source.frames[depth].remaining -= 1
        source.position += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try prepare()
        return try source.read(type, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try prepare()
        return try CompactDecoding(source: source, depth: depth + 1).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try prepare()
        return try CompactDecoding(source: source, depth: depth + 1).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try prepare()
        return CompactDecoding(source: source, depth: depth + 1)
    }
}

/// A single value, read in place (a nested value's container takes this depth).
struct CompactSingleValueDecoding: SingleValueDecodingContainer, CompactValueDecoding {
    let source: CompactSource
    let depth: Int

    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool {
        guard (try? source.close(from: depth)) != nil else { return false }
        return source.takeNil()
    }

    /// Skips what a previous value left unread at this depth.
    @inline(__always)
    func prepare() throws { try source.close(from: depth) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try prepare()
        return try source.read(type, depth: depth)
    }
}
