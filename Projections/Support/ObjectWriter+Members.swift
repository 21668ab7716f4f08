import Events

// One call per member: `o.integer(&w, "score", score)` instead of
// `o.key(&w, "score"); w.integer(score)`, and `w.object { w, o in ... }`
// instead of opening and ending an `ObjectWriter` by hand. The bytes are those
// of the two-step form (optional values print `null`).

extension JSONWriter {
    /// Writes an object: `body` writes its members through `o`; the braces are written here.
    mutating func object(_ body: (inout JSONWriter, inout ObjectWriter) -> Void) {
        var o = ObjectWriter(&self)
        body(&self, &o)
        o.end(&self)
    }
}

extension ObjectWriter {
    /// Writes the member `name`: an integer, or `null`.
    mutating func integer(_ w: inout JSONWriter, _ name: StaticString, _ value: Int?) {
        key(&w, name); w.integer(value)
    }

    /// Writes the member `name`: a string, or `null`.
    mutating func string(_ w: inout JSONWriter, _ name: StaticString, _ value: String?) {
        key(&w, name); w.string(value)
    }

    /// Writes the member `name`: a day as `"YYYY-MM-DD"`, or `null`.
    mutating func day(_ w: inout JSONWriter, _ name: StaticString, _ value: Day?) {
        key(&w, name); w.day(value)
    }

    /// Writes the member `name`: a timestamp as written, or `null`.
    mutating func timestamp(_ w: inout JSONWriter, _ name: StaticString, _ value: Timestamp?) {
        key(&w, name); w.timestamp(value)
    }

    /// Writes the member `name`: `true` or `false`.
    mutating func bool(_ w: inout JSONWriter, _ name: StaticString, _ value: Bool) {
        key(&w, name); w.bool(value)
    }

    /// Writes the member `name`: a JSON number from its literal, or `null`.
    mutating func number(_ w: inout JSONWriter, _ name: StaticString, _ literal: String?) {
        key(&w, name); w.number(literal)
    }

    /// Writes the member `name`: an array, one element at a time.
    mutating func array<C: Collection>(_ w: inout JSONWriter, _ name: StaticString, _ items: C,
                                       _ element: (inout JSONWriter, C.Element) -> Void) {
        key(&w, name); w.array(items, element)
    }

    /// Writes the member `name`: an array of objects, whose members `body` writes for each item.
    mutating func objects<C: Collection>(_ w: inout JSONWriter, _ name: StaticString, _ items: C,
                                         _ body: (inout JSONWriter, inout ObjectWriter, C.Element) -> Void) {
        key(&w, name); w.array(items) { w, item in w.object { w, o in body(&w, &o, item) } }
    }

    /// Writes the member `name`: an object whose members `body` writes.
    mutating func object(_ w: inout JSONWriter, _ name: StaticString, _ body: (inout JSONWriter, inout ObjectWriter) -> Void) {
        key(&w, name); w.object(body)
    }
}
