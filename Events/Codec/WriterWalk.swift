/// The writer's walk compiled per object of the format: for the envelope and
/// for each event type's `data` (and the items of its array member), the
/// tokens the writer puts before its members' values (`"name":` for the
/// first, `,"name":` after), in the writer's order, as one flat table of
/// plain values that the walk (``LineDecoder`` `scanWritersLine`) reads
/// without a bounds check, a retain or a copy; and the event types found by
/// their names' bytes at once (one hash, one compare).
///
/// Nothing here is written by hand: each table is made once from the member
/// lists the codec already has (``WriterOrder/envelope``, each type's
/// ``MemberLayout``, itself made from the type's ``PayloadMember`` cases in
/// its own file), and the type hash is searched for at start-up among the
/// types' names. The tables only make the walk faster: what a line must be
/// to be the writer's, and what the walk captures, are as before.
final class WriterWalks: @unchecked Sendable {
    /// The tables, made once (immutable after: the class is `Sendable`).
    static let shared = WriterWalks()

    /// The envelope's members.
    let envelope: ObjectWalk
    /// Each type's `data`, by case (``declarationIndex(_:)``).
    private let data: UnsafeMutablePointer<ObjectWalk>
    /// The types, by case.
    private let types: UnsafeMutablePointer<EventType>
    /// Each type's ``DataRules`` (nil: its rules need the built payload), by
    /// case: unretained, as ``DataRules/of(_:)``'s table keeps every one for
    /// the program's life. The walk hands the rules of the type it found to
    /// the second stage, with no lookup, retain or release a line.
    private let rules: UnsafeMutablePointer<Unmanaged<DataRules>?>
    /// The types' names, by case.
    private let names: UnsafeMutablePointer<Spelling>
    /// The case whose name hashes to each value, or -1 (``hash(_:_:_:)``).
    private let byHash: UnsafeMutablePointer<Int8>
    /// The hash: `(count * multiplier + first byte + last byte) & mask`, with no two types' names alike.
    private let multiplier: Int
    private let mask: Int

    private init() {
        envelope = ObjectWalk(tokens: WriterOrder.envelope.map { $0.spelling }, nested: EnvelopeMember.data.rawValue, items: nil)
        let all = EventType.allCases
        precondition(hasDeclarationIndices(EventType.self), "a type's index is its case's place")
        data = .allocate(capacity: all.count)
        types = .allocate(capacity: all.count)
        names = .allocate(capacity: all.count)
        rules = .allocate(capacity: all.count)
        for (k, type) in all.enumerated() {
            (rules + k).initialize(to: DataRules.of(type).map(Unmanaged.passUnretained))
            (data + k).initialize(to: ObjectWalk(type.layout))
            (types + k).initialize(to: type)
            (names + k).initialize(to: Spelling(type.rawValue))
        }
        // The least table in which the types' names fall apart (there is one for a few dozen types).
        let bytes = all.map { Array($0.rawValue.utf8) }
        var found: (Int, Int)? = nil
        search: for mask in [31, 63, 127, 255] {
            for multiplier in 1...64 {
                let hashes = bytes.map { b in (b.count &* multiplier &+ Int(b[0]) &+ Int(b[b.count - 1])) & mask }
                if Set(hashes).count == hashes.count { found = (multiplier, mask); break search }
            }
        }
        let (multiplier, mask) = found ?? (1, 0)
        self.multiplier = multiplier
        self.mask = mask
        byHash = .allocate(capacity: mask + 1)
        byHash.initialize(repeating: -1, count: mask + 1)
        if found != nil {
            for (k, b) in bytes.enumerated() { byHash[(b.count &* multiplier &+ Int(b[0]) &+ Int(b[b.count - 1])) & mask] = Int8(k) }
        }
    }

    /// The type whose name is exactly the `count` bytes at `start` of
    /// `line`, its `data`'s walk and its ``DataRules`` (``DataRules/of(_:)``'s);
    /// nil for any other bytes (then the line is not the writer's, or its
    /// type is unknown: the general walk reads it). `line` must hold 24 bytes from `start`.
    @inline(__always) func type(_ line: UnsafeRawBufferPointer, _ start: Int, _ count: Int)
        -> (type: EventType, walk: ObjectWalk, rules: Unmanaged<DataRules>?)? {
        guard count > 0, count <= 24 else { return nil }
        let k = Int(byHash[(count &* multiplier &+ Int(line[start]) &+ Int(line[start &+ count &- 1])) & mask])
        guard k >= 0, names[k].count == count, names[k].matches(line, at: start) else { return nil }
        return (types[k], data[k], rules[k])
    }
}

/// One object's walk: its members' tokens by slot (the writer's order), and
/// the member whose value is an object or an array of objects walked in turn.
struct ObjectWalk {
    /// Slot k's token; memory made once, never freed (the tables live as long as the program).
    let tokens: UnsafePointer<Spelling>
    /// How many members.
    let count: Int
    /// The slot whose value is walked as an object (the envelope's `data`) or
    /// as an array of objects (``items``); -1 for none.
    let nested: Int
    /// The walk of the items of the array member, when there is one.
    let items: UnsafePointer<ObjectWalk>?

    /// The walk of an object of `layout`.
    init(_ layout: MemberLayout) {
        let items: UnsafePointer<ObjectWalk>? = layout.items.map { array in
            let p = UnsafeMutablePointer<ObjectWalk>.allocate(capacity: 1)
            p.initialize(to: ObjectWalk(array.layout))
            return UnsafePointer(p)
        }
        self.init(tokens: layout.tokens.map { $0.spelling }, nested: layout.items?.slot ?? -1, items: items)
    }

    init(tokens spellings: [Spelling], nested: Int, items: UnsafePointer<ObjectWalk>?) {
        precondition(spellings.count <= MemberLayout.capacity, "an object of the format has at most \(MemberLayout.capacity) members")
        let p = UnsafeMutablePointer<Spelling>.allocate(capacity: max(spellings.count, 1))
        p.initialize(from: spellings, count: spellings.count)
        tokens = UnsafePointer(p)
        count = spellings.count
        self.nested = nested
        self.items = items
    }
}
