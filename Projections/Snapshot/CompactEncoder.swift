import Events

/// Writes any `Encodable` value in the ``CompactFormat``.
///
/// ```swift
/// let bytes = try CompactEncoder().encode(projector)
/// let again = try CompactDecoder().decode(LearnerProjector.self, from: bytes)
/// ```
package struct CompactEncoder {
    /// Whether types with a hand-written fast path (``CompactSink/fastPaths``) use it.
    package var fastPaths = true

    /// Makes an encoder.
    package init() {}

    /// The bytes of `value`.
    package func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let sink = CompactSink()
        sink.fastPaths = fastPaths
        try sink.write(value, depth: 0)
        sink.close(from: 0)
        if let failure = sink.failure { throw failure }
        return sink.bytes
    }
}

/// The bytes being written and the open containers, shared by every encoder
/// and container of one `encode` call.
final class CompactSink {
    enum Kind { case keyed, unkeyed }

    struct Frame {
        var kind: Kind
        /// For `unkeyed`: where the 4-byte count goes, and the count so far.
        var countAt: Int
        var count: Int
    }

    // One sink serves one `encode` call on one thread: the run-time exclusivity
    // checks Swift makes on class properties (a third of the time) are not needed.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// Whether hand-written fast paths may write instead of `Codable` (the
    /// bytes are the same; tests turn this off to compare).
    var fastPaths = true
    /// `frames[d]` is the container opened by the encoder at depth `d`.
    @exclusivity(unchecked) var frames: [Frame] = []
    /// The first misuse of the Encoder protocol (reported when `encode` ends).
    var failure: EncodingError?

    init() { bytes.reserveCapacity(1 << 16) }

    /// Closes the containers at depth `depth` and deeper: `end` for keyed ones, the count for unkeyed ones.
    @inline(__always)
    func close(from depth: Int) {
        while frames.count > depth {
            let frame = frames.removeLast()
            switch frame.kind {
            case .keyed:
                bytes.append(CompactFormat.Tag.end.rawValue)
            case .unkeyed:
                let n = UInt32(truncatingIfNeeded: frame.count)
                bytes[frame.countAt] = UInt8(truncatingIfNeeded: n)
                bytes[frame.countAt + 1] = UInt8(truncatingIfNeeded: n >> 8)
                bytes[frame.countAt + 2] = UInt8(truncatingIfNeeded: n >> 16)
                bytes[frame.countAt + 3] = UInt8(truncatingIfNeeded: n >> 24)
            }
        }
    }

    /// Opens the container of the encoder at `depth` (or finds it open: a second request returns the same one).
    func open(_ kind: Kind, depth: Int) {
        close(from: depth + 1)
        if frames.count == depth + 1 {
            if frames[depth].kind != kind { fail("a value asked for both a keyed and an unkeyed container") }
            return
        }
        guard frames.count == depth else {
            fail("a container was requested out of order")
            return
        }
        switch kind {
        case .keyed:
            bytes.append(CompactFormat.Tag.keyed.rawValue)
            frames.append(Frame(kind: .keyed, countAt: 0, count: 0))
        case .unkeyed:
            bytes.append(CompactFormat.Tag.unkeyed.rawValue)
            frames.append(Frame(kind: .unkeyed, countAt: bytes.count, count: 0))
            bytes.append(contentsOf: [0, 0, 0, 0] as [UInt8])
        }
    }

    func fail(_ message: String) {
        if failure == nil {
            failure = EncodingError.invalidValue((), EncodingError.Context(codingPath: [], debugDescription: message))
        }
    }

    // MARK: primitives

    @inline(__always)
    func tag(_ t: CompactFormat.Tag) { bytes.append(t.rawValue) }

    @inline(__always)
    func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    func writeNil() { tag(.null) }
    func write(_ value: Bool) { tag(value ? .true : .false) }
    func write(signed value: Int64) {
        tag(.int)
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }
    func write(unsigned value: UInt64) {
        tag(.uint)
        varint(value)
    }
    /// Writes any fixed-width integer: a signed type as `int`, an unsigned one as `uint`.
    @inline(__always)
    func write<I: FixedWidthInteger>(integer value: I) {
        if I.isSigned { write(signed: Int64(value)) } else { write(unsigned: UInt64(value)) }
    }
    func write(_ value: Double) {
        tag(.double)
        let bits = value.bitPattern
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(8 * i))) }
    }
    func write(_ value: Float) {
        tag(.float)
        let bits = value.bitPattern
        for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(8 * i))) }
    }
    func write(_ value: String) {
        tag(.string)
        utf8(value)
    }
    func key(_ key: some CodingKey) { self.key(key.stringValue) }
    func key(_ name: String) {
        tag(.key)
        utf8(name)
    }

    @inline(__always)
    private func utf8(_ value: String) {
        var s = value
        s.withUTF8 { buffer in
            varint(UInt64(buffer.count))
            bytes.append(contentsOf: buffer)
        }
    }

    // MARK: hand-written fast paths (the same bytes as the Codable path)

    /// Starts an object (a keyed container).
    @inline(__always) func beginObject() { tag(.keyed) }
    /// Ends an object.
    @inline(__always) func endObject() { tag(.end) }
    /// Writes a field's key.
    @inline(__always) func field(_ name: StaticString) {
        tag(.key)
        varint(UInt64(name.utf8CodeUnitCount))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }
    /// Starts an array (an unkeyed container) of `count` values.
    @inline(__always) func beginArray(_ count: Int) {
        tag(.unkeyed)
        let n = UInt32(truncatingIfNeeded: count)
        bytes.append(UInt8(truncatingIfNeeded: n))
        bytes.append(UInt8(truncatingIfNeeded: n >> 8))
        bytes.append(UInt8(truncatingIfNeeded: n >> 16))
        bytes.append(UInt8(truncatingIfNeeded: n >> 24))
    }
    /// Writes an `Int`.
    @inline(__always) func write(_ value: Int) { write(signed: Int64(value)) }
    /// Writes an optional string (nil as `nil`).
    @inline(__always) func write(_ value: String?) { if let value { write(value) } else { writeNil() } }
    /// Writes an optional `Int` (nil as `nil`).
    @inline(__always) func write(_ value: Int?) { if let value { write(value) } else { writeNil() } }
    /// Writes an optional bool (nil as `nil`).
    @inline(__always) func write(_ value: Bool?) { if let value { write(value) } else { writeNil() } }

    /// Writes any value through its `Codable` form, from inside a fast path.
    func writeNested<T: Encodable>(_ value: T) throws {
        let depth = frames.count
        try value.encode(to: CompactEncoding(sink: self, depth: depth))
        close(from: depth)
    }

    /// Writes a nested value whose encoder is at `depth`.
    func write<T: Encodable>(_ value: T, depth: Int) throws {
        // The leaves a learner's state holds by the thousand, written without
        // a trip through their `Codable` containers (see CompactFormat).
        if T.self == Day.self {
            write(signed: Int64(unsafeBitCast(value, to: Day.self).ordinal))
        } else if T.self == Timestamp.self {
            write(unsafeBitCast(value, to: Timestamp.self).text)
        } else if T.self == ExactString.self {
            write(unsafeBitCast(value, to: ExactString.self).value)
        } else {
            try value.encode(to: CompactEncoding(sink: self, depth: depth))
        }
    }
}

/// The `Encoder` handed to each value: its sink and its depth.
struct CompactEncoding: Encoder {
    let sink: CompactSink
    let depth: Int

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        sink.open(.keyed, depth: depth)
        return KeyedEncodingContainer(CompactKeyedEncoding<Key>(sink: sink, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        sink.open(.unkeyed, depth: depth)
        return CompactUnkeyedEncoding(sink: sink, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        CompactSingleValueEncoding(sink: sink, depth: depth)
    }
}

/// A keyed container: each field is its key, then its value. Optional fields
/// are always written (nil as `nil`), so fields stay in order.
struct CompactKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: CompactSink
    let depth: Int

    var codingPath: [any CodingKey] { [] }

    @inline(__always)
    private func field(_ key: Key) {
        sink.close(from: depth + 1)
        sink.key(key)
    }

    /// The key, then the value or `nil`.
    @inline(__always)
    private func field<T>(_ key: Key, _ value: T?, _ write: (T) -> Void) {
        field(key)
        if let value { write(value) } else { sink.writeNil() }
    }

    mutating func encodeNil(forKey key: Key) throws { field(key); sink.writeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { field(key); sink.write(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { field(key); sink.write(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { field(key); sink.write(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { field(key); sink.write(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { field(key); sink.write(integer: value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { field(key); sink.write(integer: value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { field(key); sink.write(integer: value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { field(key); sink.write(integer: value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { field(key); sink.write(integer: value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { field(key); sink.write(integer: value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { field(key); sink.write(integer: value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { field(key); sink.write(integer: value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { field(key); sink.write(integer: value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { field(key); sink.write(integer: value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        field(key)
        try sink.write(value, depth: depth + 1)
    }

    // Written even when nil (the protocol's defaults would skip the field).
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { field(key, value) { sink.write($0) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { field(key, value) { sink.write($0) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { field(key, value) { sink.write($0) } }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { field(key, value) { sink.write($0) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { field(key, value) { sink.write(integer: $0) } }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { field(key, value) { sink.write(integer: $0) } }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { field(key, value) { sink.write(integer: $0) } }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { field(key, value) { sink.write(integer: $0) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { field(key, value) { sink.write(integer: $0) } }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { field(key, value) { sink.write(integer: $0) } }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { field(key, value) { sink.write(integer: $0) } }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { field(key, value) { sink.write(integer: $0) } }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { field(key, value) { sink.write(integer: $0) } }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { field(key, value) { sink.write(integer: $0) } }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        field(key)
        if let value { try sink.write(value, depth: depth + 1) } else { sink.writeNil() }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        field(key)
        return CompactEncoding(sink: sink, depth: depth + 1).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        field(key)
        return CompactEncoding(sink: sink, depth: depth + 1).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        sink.close(from: depth + 1)
        sink.key("super")
        return CompactEncoding(sink: sink, depth: depth + 1)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        field(key)
        return CompactEncoding(sink: sink, depth: depth + 1)
    }
}

/// A container that takes one value at a time (unkeyed or single-value): the
/// `encode` requirements the two protocols share, written once.
protocol CompactValueEncoding {
    var sink: CompactSink { get }
    /// Gets ready for the next value (closes what a previous one left open).
    func prepare()
}

extension CompactValueEncoding {
    func encodeNil() throws { prepare(); sink.writeNil() }
    func encode(_ value: Bool) throws { prepare(); sink.write(value) }
    func encode(_ value: String) throws { prepare(); sink.write(value) }
    func encode(_ value: Double) throws { prepare(); sink.write(value) }
    func encode(_ value: Float) throws { prepare(); sink.write(value) }
    func encode(_ value: Int) throws { prepare(); sink.write(integer: value) }
    func encode(_ value: Int8) throws { prepare(); sink.write(integer: value) }
    func encode(_ value: Int16) throws { prepare(); sink.write(integer: value) }
    func encode(_ value: Int32) throws { prepare(); sink.write(integer: value) }
    func encode(_ value: Int64) throws { prepare(); sink.write(integer: value) }
    func encode(_ value: UInt) throws { prepare(); sink.write(integer: value) }
    func encode(_ value: UInt8) throws { prepare(); sink.write(integer: value) }
    func encode(_ value: UInt16) throws { prepare(); sink.write(integer: value) }
    func encode(_ value: UInt32) throws { prepare(); sink.write(integer: value) }
    func encode(_ value: UInt64) throws { prepare(); sink.write(integer: value) }
}

/// An unkeyed container: a count (patched when it closes), then the values.
struct CompactUnkeyedEncoding: UnkeyedEncodingContainer, CompactValueEncoding {
    let sink: CompactSink
    let depth: Int

    var codingPath: [any CodingKey] { [] }
    var count: Int { sink.frames.count > depth ? sink.frames[depth].count : 0 }

    /// Closes the previous element's containers and counts this one.
    @inline(__always)
    func prepare() {
        sink.close(from: depth + 1)
        if sink.frames.count > depth { sink.frames[depth].count += 1 }
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        prepare()
        try sink.write(value, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        prepare()
        return CompactEncoding(sink: sink, depth: depth + 1).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        prepare()
        return CompactEncoding(sink: sink, depth: depth + 1).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        prepare()
        return CompactEncoding(sink: sink, depth: depth + 1)
    }
}

/// A single value: written in place (a nested value's container takes this depth).
struct CompactSingleValueEncoding: SingleValueEncodingContainer, CompactValueEncoding {
    let sink: CompactSink
    let depth: Int

    var codingPath: [any CodingKey] { [] }

    /// Closes the containers a previous value left open at this depth.
    @inline(__always)
    func prepare() { sink.close(from: depth) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        prepare()
        try sink.write(value, depth: depth)
    }
}
