/// JSON value equality: the one comparison of event content (the writer's
/// `conflicting_duplicate` check, `merge`, `pending`, `report` over several logs).
extension JSONValue {
    /// Whether two values are the same JSON value: strings byte for byte
    /// (after unescaping), numbers by value (`1`, `1.0`, `10e-1` are equal;
    /// `-0` equals `0`), arrays item by item in order, objects by their
    /// members whatever their order (a member name repeated is not allowed
    /// by the decoder, so each name is looked up once).
    public func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.number(let a), .number(let b)): return a == b || (DecimalNumber(a).map { $0 == DecimalNumber(b) } ?? false)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in
                b.first { $0.name.utf8.elementsEqual(member.name.utf8) }.map { member.value.isEquivalent(to: $0.value) } ?? false
            }
        default: return false
        }
    }
}

/// A JSON number literal reduced to sign, significant digits and exponent,
/// so two literals of the same value compare equal.
struct DecimalNumber: Equatable {
    var negative: Bool
    /// Significant digits, no leading or trailing zeros (empty for zero).
    var digits: [UInt8]
    /// The value is `digits × 10^exponent`.
    var exponent: Int

    /// Parses a JSON number literal; nil when it is not one (or its exponent is absurdly long).
    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        var whole: [UInt8] = [], fraction: [UInt8] = []
        while let c = bytes.first, c &- 48 < 10 { whole.append(c); bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            while let c = bytes.first, c &- 48 < 10 { fraction.append(c); bytes = bytes.dropFirst() }
        }
        var exponent = 0
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var sign = 1
            if bytes.first == UInt8(ascii: "-") { sign = -1; bytes = bytes.dropFirst() } else if bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard !bytes.isEmpty, bytes.count <= 15, bytes.allSatisfy({ $0 &- 48 < 10 }) else { return nil }
            exponent = sign * bytes.reduce(0) { $0 * 10 + Int($1 - 48) }
            bytes = bytes.dropFirst(bytes.count)
        }
        guard bytes.isEmpty, !whole.isEmpty else { return nil }
        var digits = (whole + fraction)[...]
        exponent -= fraction.count
        while digits.first == UInt8(ascii: "0") { digits = digits.dropFirst() }
        while digits.last == UInt8(ascii: "0") { digits = digits.dropLast(); exponent += 1 }
        self.digits = Array(digits)
        if digits.isEmpty { negative = false; exponent = 0 }
        self.exponent = exponent
    }
}
