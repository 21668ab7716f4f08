import Events

extension JSONWriter {
    /// Writes `null`.
    mutating func null() { raw("null") }

    /// Writes an integer or `null`.
    mutating func integer(_ n: Int?) {
        if let n { integer(n) } else { null() }
    }

    /// Writes a string or `null`.
    mutating func string(_ s: String?) {
        if let s { string(s) } else { null() }
    }

    /// Writes a day as `"YYYY-MM-DD"` or `null`.
    mutating func day(_ d: Day?) {
        string(d?.description)
    }

    /// Writes a timestamp as written, or `null`.
    mutating func timestamp(_ t: Timestamp?) {
        string(t?.text)
    }

    /// Writes a JSON number from its literal, or `null`.
    mutating func number(_ literal: String?) {
        if let literal { self.literal(literal) } else { null() }
    }

    /// Writes an array, one element at a time.
    mutating func array<C: Collection>(_ items: C, _ element: (inout JSONWriter, C.Element) -> Void) {
        byte(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            element(&self, item)
        }
        byte(UInt8(ascii: "]"))
    }
}
