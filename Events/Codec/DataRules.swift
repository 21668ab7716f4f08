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
/// table: a ``Payload/dayRule``, items read as objects (checked against each
/// other), a date.
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

    private init(_ rules: [Rule], _ spellings: [Spelling]) {
        self.rules = rules
        self.spellings = spellings
    }

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
                let placeholder = try type.decode(FieldRules(JSONScanner(empty, checksLine: false), .data), d, recorder: recorder)
                var dayRule = HasDayRule()
                placeholder.accept(&dayRule)
                guard recorder.isComplete, !dayRule.found else { return nil }
            } catch {
                return nil
            }
            return DataRules(recorder.rules, recorder.spellings)
        }
    }

    /// Whether `d` (scanned for this table's type, in `s`'s line) keeps every
    /// rule: `true` only when the payload's init and its ``Payload/dayRule``
    /// (none) would accept it; `false` when in doubt.
    @inline(__always) func keeps(_ d: DataCapture, in s: JSONScanner) -> Bool {
        guard d.members.extra.isEmpty, d.items.isEmpty else { return false }
        // Each rule read in place (no copy of a rule, no retain of its spellings).
        return rules.withUnsafeBufferPointer { rules in
            spellings.withUnsafeBufferPointer { names in
                d.members.slots.reading { slots in
                    for k in rules.indices where !keeps(rules[k], slots[rules[k].slot], in: s, names) { return false }
                    return true
                }
            }
        }
    }

    /// Whether the capture `c` keeps `rule`.
    @inline(__always) private func keeps(_ rule: Rule, _ c: Capture, in s: JSONScanner, _ spellings: UnsafeBufferPointer<Spelling>) -> Bool {
        // Not present: an optional member reads as nil; a required one is an error.
        guard c.isPresent else { return !rule.required }
        switch rule.check {
        case .text(let text):
            guard c.kind == .string, !c.flag, text.problem(s.raw(c)) == nil else { return false }
        case .integer(let min):
            guard c.kind == .number, !c.flag, let n = FieldRules.integer(s.raw(c)), FieldRules.keeps(n, min: min) else { return false }
        case .bool:
            guard c.kind == .bool else { return false }
        case .enumeration(let names):
            guard c.kind == .string, !c.flag else { return false }
            let value = LineSlice(line: s.bytes, start: c.start, count: c.end &- c.start)
            guard names.contains(where: { value.equals(spellings[$0]) }) else { return false }
        case .seconds:
            guard c.kind == .number, Seconds.value(ofLiteral: s.raw(c)) != nil else { return false }
        }
        return true
    }

    /// What a recording ``DataReader`` notes: the rules, and whether every one can be checked on captures.
    final class Recorder {
        private(set) var rules: [Rule] = []
        private(set) var spellings: [Spelling] = []
        private(set) var isComplete = true

        func note<M: PayloadMember>(_ m: M, required: Bool, _ check: Check) {
            rules.append(Rule(slot: m.slot, required: required, check: check))
        }

        /// A rule only the built payload can check.
        func unsupported() { isComplete = false }

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
