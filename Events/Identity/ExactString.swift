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
        a.value.utf8.elementsEqual(b.value.utf8)
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
    /// Whether `a` sorts before `b` by Unicode code point.
    package static func less(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
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

    /// Whether two strings hold the same scalars (no normalisation).
    package static func equal(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
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
