/// One scanned object of `data` (or an item of an array in it), read member
/// by member, by name: each accessor applies the format's rule for that kind
/// of value (``FieldRules``) and names the member (`data.NAME`,
/// `data.answers[k].NAME`) when the rule is broken.
///
/// A payload's ``DataObject/init(_:)`` reads its members with it in the
/// format's order, which is also the order its rules are checked in.
package struct DataReader<M: PayloadMember> {
    let rules: FieldRules
    let object: ObjectCapture
    /// The items of the object's array member, as scanned.
    let items: [ItemCapture]
    /// What the scan spilled: the members the object's type does not define (``Spilled/extra(of:)``).
    let spilled: Spilled
    /// The event type read (two types sharing a payload may differ in a rule); nil for an item.
    package let type: EventType?
    /// When set, the reader reads no line: each accessor notes the rule it
    /// applies (``DataRules``, made once per type) and returns a placeholder.
    var recorder: DataRules.Recorder? = nil

    /// The reader of an event's `data`, scanned for its type (or, with a
    /// `recorder`, of none: the type's rules are noted, ``DataRules``).
    @inline(__always) init(_ rules: FieldRules, _ d: DataCapture, _ spilled: Spilled, recorder: DataRules.Recorder? = nil) {
        self.init(rules: rules, object: d.members, items: spilled.items, spilled: spilled, type: d.type)
        self.recorder = recorder
    }

    init(rules: FieldRules, object: ObjectCapture, items: [ItemCapture], spilled: Spilled, type: EventType?) {
        self.rules = rules; self.object = object; self.items = items; self.spilled = spilled; self.type = type
    }

    /// The members the format does not define, as written; to a reader of an
    /// older version, also the members a later version added (after the others).
    package var extra: [JSONMember] {
        guard rules.known < FormatVersion.latest else { return spilled.extra(of: object) }
        var kept = spilled.extra(of: object)
        for m in M.allCases where m.version > rules.known && self[m].kind != .absent {
            kept.append(JSONMember(m.rawValue, rules.scanner.value(self[m])))
        }
        return kept
    }

    @inline(__always) private subscript(_ m: M) -> Capture { object.slots[m.slot] }

    /// A required string: 1 to 256 characters.
    @inline(__always) package func string(_ m: M) throws(EventError) -> String {
        if let recorder { recorder.note(m, required: true, .text(.text)); return "" }
        return try rules.string(self[m], m.rawValue)
    }

    /// An optional string: 1 to 256 characters when present (and no control
    /// characters for a member that says so); nil to a reader of a version
    /// older than the member's, which keeps it among ``extra``.
    @inline(__always) package func optionalString(_ m: M) throws(EventError) -> String? {
        guard m.version <= rules.known else { return nil }
        if let recorder { recorder.note(m, required: false, .text(.of(m))); return nil }
        return try rules.optionalString(self[m], m.rawValue, .of(m))
    }

    /// A required string that is made even when the reader only checks (the
    /// object's rules compare it: ``DataObject/distinct``).
    package func comparedString(_ m: M) throws(EventError) -> String {
        // The table checks its own rule; the comparison is ``DataObject/distinct``'s, which the table reads too.
        if let recorder { recorder.note(m, required: true, .text(.text)); return "" }
        return try rules.made.string(self[m], m.rawValue)
    }

    /// A required integer of at least the member's ``PayloadMember/minimum``.
    @inline(__always) package func integer(_ m: M) throws(EventError) -> Int {
        if let recorder { recorder.note(m, required: true, .integer(min: m.minimum)); return m.minimum }
        return try rules.integer(self[m], m.rawValue, min: m.minimum)
    }

    /// An optional integer of at least the member's ``PayloadMember/minimum``.
    @inline(__always) package func optionalInteger(_ m: M) throws(EventError) -> Int? {
        if let recorder { recorder.note(m, required: false, .integer(min: m.minimum)); return nil }
        return try rules.optionalInteger(self[m], m.rawValue, min: m.minimum)
    }

    /// A required boolean.
    @inline(__always) package func bool(_ m: M) throws(EventError) -> Bool {
        if let recorder { recorder.note(m, required: true, .bool); return false }
        return try rules.bool(self[m], m.rawValue)
    }

    /// An optional boolean.
    @inline(__always) package func optionalBool(_ m: M) throws(EventError) -> Bool? {
        if let recorder { recorder.note(m, required: false, .bool); return nil }
        return try rules.optionalBool(self[m], m.rawValue)
    }

    /// A required string that is one of `E`'s raw values.
    @inline(__always) package func enumeration<E: RawRepresentable & CaseIterable>(_ m: M) throws(EventError) -> E where E.RawValue == String {
        if let recorder { return try recorder.enumeration(m, E.self) }
        return try rules.enumeration(self[m], m.rawValue) { caseNamed($0, in: E.self) }
    }

    /// A required date, `YYYY-MM-DD`, that exists (a learner day).
    package func day(_ m: M) throws(EventError) -> Day {
        if let recorder { recorder.unsupported(); return Day(ordinal: 0) }
        let c = self[m]
        guard c.kind != .absent else { throw rules.error(m.rawValue, "is required") }
        guard c.kind == .string else { throw rules.error(m.rawValue, "must be a date string YYYY-MM-DD, not \(c.kind.name)") }
        let text = rules.scanner.string(c)
        guard let day = Day(text) else {
            throw rules.error(m.rawValue, "must be a date YYYY-MM-DD that exists (got \"\(text.prefixForMessage)\")")
        }
        return day
    }

    /// A number > 0 (``Seconds``): required when `required`, else optional.
    package func seconds(_ m: M, required: Bool) throws(EventError) -> Seconds? {
        if let recorder { return try recorder.seconds(m, required: required) }
        let c = self[m]
        if required, c.kind == .absent { throw rules.error(m.rawValue, "is required") }
        guard required ? c.kind != .absent : c.isPresent else { return nil }
        guard c.kind == .number else { throw rules.error(m.rawValue, "must be a number > 0, not \(c.kind.name)") }
        let literal = rules.scanner.text(c)
        guard let value = Seconds(literal: literal) else {
            if let v = Double(literal), v.isFinite, v > 0 {
                throw rules.error(m.rawValue, "\(FieldRules.outOfRange) (got \(literal.prefixForMessage))")
            }
            throw rules.error(m.rawValue, "must be a number > 0 (got \(literal.prefixForMessage))")
        }
        return value
    }

    /// A required array of objects, each read as an `O` and checked against
    /// the items before it (``DataObject/clash(among:at:_:)``) as it is read.
    package func objects<O: DataObject>(_ m: M) throws(EventError) -> [O] {
        // Recording: the items' own table, made by running `O`'s init the same way, and `O`'s distinct member.
        if let recorder { try recorder.items(m, O.self, rules.item); return [] }
        let list = self[m]
        guard list.kind != .absent else { throw rules.error(m.rawValue, "is required") }
        guard list.kind == .array else { throw rules.error(m.rawValue, "must be an array, not \(list.kind.name)") }
        var objects: [O] = []
        objects.reserveCapacity(items.count)
        var seen: Set<ExactString>? = nil
        let item = rules.item
        for (k, capture) in items.enumerated() {
            // Item k's rules name a member within it (`choice`); the error names the item too (`data.answers[2].choice`).
            func named(_ error: EventError) -> EventError {
                var e = error
                e.member = "data.\(m.rawValue)[\(k)]" + (error.member.map { "." + $0 } ?? "")
                return e
            }
            guard capture.kind == .object else { throw rules.error(m.rawValue + "[\(k)]", "must be an object, not \(capture.kind.name)") }
            do {
                objects.append(try O(DataReader<O.Member>(rules: item, object: capture.members, items: [], spilled: spilled, type: nil)))
            } catch {
                throw named(error)
            }
            if let (member, rule) = O.clash(among: objects, at: k, &seen) { throw named(item.error(member.rawValue, rule)) }
        }
        return objects
    }
}
