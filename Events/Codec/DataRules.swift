/// The rules of one event type's `data`, member by member, as its payload's
/// ``DataObject/init(_:)`` applies them: recorded once per type by running
/// that init over a ``DataReader`` that reads no line (``Recorder``: each
/// accessor notes its rule and returns a placeholder). Each rule is still
/// stated once, in its type's file; this is a table of the same calls.
///
/// The second stage (`LineDecoder.writersKeys`) checks a writer's line with
/// it without building the payload. A table only answers whether the
/// captures plainly keep every rule, each by the rule function the accessor
/// calls (``TextRule/problem(_:)``, ``FieldRules/integer(_:)`` and
/// ``FieldRules/keeps(_:min:)``, `caseNamed`, ``Seconds/value(ofLiteral:)``):
/// `true` only where the payload's init would accept them. Anything else (an
/// escape, a rule broken) is `false`, and the caller builds the payload,
/// which finds the error. A type whose rules need the built payload has no
/// table: a ``Payload/dayRule``, a date.
///
/// An array member's items (a submission's `answers`) have a table of their
/// own, recorded the same way from the items' init (``DataReader/objects(_:)``),
/// and their ``DataObject/distinct`` member is compared as bytes by the same
/// function the built items' ``DataObject/clash(among:at:_:)`` uses
/// (``DistinctValues``): only values written without escapes (the text rule's
/// check here), whose bytes are their UTF-8, so bytes that differ are code
/// points that differ; a value that repeats is `false` (the payload built finds the error).
///
/// The captures are checked against the table's ``Compiled`` form: masks of
/// the slots of each check, derived from ``rules`` once when the table is
/// made, so that each check runs as one straight loop (issue 36, eighth pass).
final class DataRules: @unchecked Sendable {
    /// One member's check, as its accessor applies it.
    enum Check {
        /// A string keeping the text rule (``DataReader/string(_:)``, ``DataReader/optionalString(_:)``).
        case text(TextRule)
        /// An integer of at least `min` (``DataReader/integer(_:)``, ``DataReader/optionalInteger(_:)``).
        case integer(min: Int)
        /// A boolean (``DataReader/bool(_:)``, ``DataReader/optionalBool(_:)``).
        case bool
        /// One of an enumeration's values (``DataReader/enumeration(_:)``):
        /// the bytes of one of its raw values, as its match (`caseNamed`)
        /// compares them; these ``DataRules/spellings``. (No reference held:
        /// reading a rule retains nothing.)
        case enumeration(Range<Int>)
        /// A number > 0 (``DataReader/seconds(_:required:)``).
        case seconds
        /// An array of objects, each keeping the items' table (``DataReader/objects(_:)``, ``DataRules/items``).
        case items
    }

    /// The items of the table's array member: their own table, and the slot
    /// of their ``DataObject/distinct`` member (a string each keeps the text rule of), if any.
    struct Items {
        let table: DataRules
        let distinct: Int?
    }

    /// A member's rule: where its capture is, whether it must be present, its check.
    struct Rule {
        let slot: Int
        let required: Bool
        let check: Check
    }

    /// The rules in the order the payload's init applies them (immutable: the class is `Sendable`).
    let rules: [Rule]
    /// The raw values of the table's enumerations, as bytes (``Check/enumeration(_:)`` names a range of them).
    let spellings: [Spelling]
    /// The items' table, when the object has an array member (``Check/items``).
    let items: Items?

    /// The rules compiled to masks, derived once from ``rules`` (nil: the
    /// table cannot be put that way, and ``keeps(_:_:in:)`` answers false).
    let compiled: Compiled?

    private init(_ recorder: Recorder) {
        rules = recorder.rules
        spellings = recorder.spellings
        items = recorder.items
        compiled = Compiled(recorder.rules)
    }

    deinit { compiled?.slots.deallocate() }

    /// The table of `type`; nil when its rules need the built payload.
    @inline(__always) static func of(_ type: EventType) -> DataRules? { tables[declarationIndex(type)] }

    /// Each type's table, by case, recorded once.
    private static let tables: [DataRules?] = EventType.allCases.map { DataRules.record($0) }

    /// Runs `type`'s payload init over a recording reader.
    private static func record(_ type: EventType) -> DataRules? {
        let recorder = Recorder()
        var none: UInt8 = 0
        return withUnsafeBytes(of: &none) { (empty: UnsafeRawBufferPointer) -> DataRules? in
            var d = DataCapture()
            d.type = type
            do throws(EventError) {
                let placeholder = try type.decode(FieldRules(JSONScanner(empty, checksLine: false), .data), d, Spilled(), recorder: recorder)
                var dayRule = HasDayRule()
                placeholder.accept(&dayRule)
                guard recorder.isComplete, !dayRule.found else { return nil }
            } catch {
                return nil
            }
            return DataRules(recorder)
        }
    }

    /// Whether `d` (scanned for this table's type, in `s`'s line, what it
    /// spilled kept in `spilled`) keeps every rule: `true` only when the
    /// payload's init and its ``Payload/dayRule`` (none) would accept it;
    /// `false` when in doubt. `d` is only read: passed by address (`inout`),
    /// its captures are read where they are, not copied.
    @inline(__always) func keeps(_ d: inout DataCapture, _ spilled: Spilled, in s: JSONScanner) -> Bool {
        guard !d.members.hasExtra else { return false }
        guard items == nil ? !spilled.hasItems : keepsItems(spilled.items, in: s) else { return false }
        guard let compiled else { return false }
        return spellings.withUnsafeBufferPointer { names in
            d.members.slots.readingInPlace { slots in compiled.keeps(slots, in: s, names) }
        }
    }

    /// Whether `list` (the array member's items, as scanned) keeps the
    /// items' rules: each an object of no other member keeping the items'
    /// table, and their distinct member's values pairwise different as bytes
    /// (``DistinctValues``, as the built items are compared). The array itself
    /// (present, an array) is the member's own rule (``Check/items``).
    @inline(never) private func keepsItems(_ list: [ItemCapture], in s: JSONScanner) -> Bool {
        guard let items, let compiled = items.table.compiled else { return false }
        let n = list.count
        guard n > 0 else { return true }
        // Where an item's captures lie within it: each item's read in place (no copy of its nine, no retain).
        guard let offset = MemoryLayout<ItemCapture>.offset(of: \ItemCapture.members.slots) else { return false }
        return list.withUnsafeBufferPointer { list in
            guard let base = list.baseAddress else { return false }
            @inline(__always) func slots(_ k: Int) -> Slots.Reader { Slots.Reader(at: UnsafeRawPointer(base + k) + offset) }
            let kept = items.table.spellings.withUnsafeBufferPointer { names in
                for k in 0..<n {
                    guard list[k].kind == .object, !list[k].members.hasExtra, compiled.keeps(slots(k), in: s, names) else { return false }
                }
                return true
            }
            guard kept else { return false }
            // The distinct member's slot is one of the table's text slots (``Recorder/items(_:_:_:)``), so 0 to 8 (``Compiled``).
            guard let slot = items.distinct, n > 1 else { return true }
            // Each value a string without escapes (the text rule's check above): its bytes are its UTF-8. Read once, compared pairwise.
            return withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: n) { values in
                for k in 0..<n { values.initializeElement(at: k, to: s.raw(slots(k).at(slot))) }
                var seen: Set<ByteKey>? = nil
                for k in 0..<n where DistinctValues.repeats(at: k, { ByteKey.same(values[$0], values[k]) }, { ByteKey(bytes: values[$0]) }, &seen) {
                    return false
                }
                return true
            }
        }
    }

    /// Bytes of the line compared and hashed as bytes (a distinct member's values).
    private struct ByteKey: Hashable {
        let bytes: UnsafeRawBufferPointer

        @inline(__always) static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
            guard a.count == b.count else { return false }
            for k in 0..<a.count where a[k] != b[k] { return false }
            return true
        }

        static func == (a: ByteKey, b: ByteKey) -> Bool { same(a.bytes, b.bytes) }

        func hash(into hasher: inout Hasher) { hasher.combine(bytes: bytes) }
    }

    /// What a recording ``DataReader`` notes: the rules, and whether every one can be checked on captures.
    final class Recorder {
        private(set) var rules: [Rule] = []
        private(set) var spellings: [Spelling] = []
        private(set) var isComplete = true
        /// The items' table (``DataReader/objects(_:)``'s rule).
        private(set) var items: Items? = nil

        func note<M: PayloadMember>(_ m: M, required: Bool, _ check: Check) {
            rules.append(Rule(slot: m.slot, required: required, check: check))
        }

        /// A rule only the built payload can check.
        func unsupported() { isComplete = false }

        /// ``DataReader/objects(_:)``'s rule: the array member `m` of `O`s,
        /// their table recorded by running `O`'s init over a recording reader
        /// (`rules`, an item's, reads no line), and `O`'s distinct member.
        func items<M: PayloadMember, O: DataObject>(_ m: M, _: O.Type, _ rules: FieldRules) throws(EventError) {
            let recorder = Recorder()
            var reader = DataReader<O.Member>(rules: rules, object: ObjectCapture(), items: [], spilled: Spilled(), type: nil)
            reader.recorder = recorder
            _ = try O(reader)
            let distinct = O.distinct?.member.slot
            // The distinct member's bytes are compared only where the items' table checks it is a required string without escapes.
            let checked = distinct.map { slot in
                recorder.rules.contains { if case .text = $0.check { $0.slot == slot && $0.required } else { false } }
            } ?? true
            guard items == nil, recorder.isComplete, recorder.items == nil, checked else { return unsupported() }
            items = Items(table: DataRules(recorder), distinct: distinct)
            note(m, required: true, .items)
        }

        /// ``DataReader/enumeration(_:)``'s rule, and a placeholder value.
        func enumeration<M: PayloadMember, E: RawRepresentable & CaseIterable>(_ m: M, _: E.Type) throws(EventError) -> E where E.RawValue == String {
            // `caseNamed` matches exactly the bytes of a raw value: the table keeps them as spellings (at most 24 bytes).
            let names = E.allCases.map(\.rawValue)
            if names.allSatisfy({ $0.utf8.count <= 24 }) {
                let first = spellings.count
                spellings += names.map(Spelling.init)
                note(m, required: true, .enumeration(first..<spellings.count))
            } else {
                unsupported()
            }
            guard let first = E.allCases.first else { throw EventError(.invalidData, member: m.rawValue, "has no values") }
            return first
        }

        /// ``DataReader/seconds(_:required:)``'s rule, and a placeholder value.
        func seconds<M: PayloadMember>(_ m: M, required: Bool) throws(EventError) -> Seconds? {
            note(m, required: required, .seconds)
            guard required else { return nil }
            guard let one = Seconds(1) else { throw EventError(.invalidData, member: m.rawValue, "has no placeholder") }
            return one
        }
    }

    /// Whether a payload's type has a ``Payload/dayRule``.
    private struct HasDayRule: PayloadVisitor {
        var found = false

        mutating func visit<P: Payload>(_ payload: P, as type: EventType) { found = P.dayRule != nil }
    }
}
