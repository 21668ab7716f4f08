/// A string compared exactly, scalar by scalar, and ordered by Unicode code point.
///
/// Swift's `String` `==` and `<` follow canonical equivalence ("é" written as one
/// scalar equals "e" + U+0301), but the spec compares ids exactly and orders them
/// by code point. UTF-8 byte order is code point order, so both are done on `utf8`.
package struct ExactString: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The string.
    package let value: String

    /// Wraps a string.
    package init(_ value: String) { self.value = value }

    package static func == (a: ExactString, b: ExactString) -> Bool {
        CodePoint.equal(a.value, b.value)
    }

    package func hash(into hasher: inout Hasher) {
        let hashed: Void? = value.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil { for byte in value.utf8 { hasher.combine(byte) } }
        hasher.combine(value.utf8.count)
    }

    package static func < (a: ExactString, b: ExactString) -> Bool {
        CodePoint.less(a.value, b.value)
    }

    package var description: String { value }
}

/// Code point order and exact equality for plain strings.
package enum CodePoint {
    /// Whether `a` sorts before `b` by Unicode code point (UTF-8 byte order).
    ///
    /// Native and small strings are compared in their UTF-8 storage, a byte at a
    /// time up to the first difference (a generic walk of `utf8`, ~500
    /// instructions for two 20-byte ids, is kept for other strings).
    package static func less(_ a: String, _ b: String) -> Bool {
        let ordered: Bool?? = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                let n = min(x.count, y.count)
                var k = 0
                while k < n {
                    if x[k] != y[k] { return x[k] < y[k] }
                    k += 1
                }
                return x.count < y.count
            }
        }
        if let ordered = ordered ?? nil { return ordered }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Code point order with nil first.
    package static func less(nilFirst a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == nil && b != nil }
        return less(a, b)
    }

    /// Code point order with nil last.
    package static func less(nilLast a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a != nil && b == nil }
        return less(a, b)
    }

    /// Whether two strings hold the same scalars (no normalisation): the same UTF-8 bytes.
    ///
    /// The lengths first (stored in a native or small string), then the bytes
    /// where they are stored, eight at a time (``PendingLine/equal(_:at:_:)``);
    /// a generic walk of `utf8` (~500 instructions for two 20-byte ids) only
    /// for a string without contiguous UTF-8.
    package static func equal(_ a: String, _ b: String) -> Bool {
        let (x, y) = (a.utf8, b.utf8)
        guard x.count == y.count else { return false }
        let same: Bool?? = x.withContiguousStorageIfAvailable { p in
            y.withContiguousStorageIfAvailable { q in PendingLine.equal(UnsafeRawBufferPointer(p), at: 0, UnsafeRawBufferPointer(q)) }
        }
        if let same = same ?? nil { return same }
        return x.elementsEqual(y)
    }

    /// Whether two optional strings hold the same scalars.
    package static func equal(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (x?, y?): equal(x, y)
        default: false
        }
    }
}
