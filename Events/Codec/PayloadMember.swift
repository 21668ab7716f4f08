/// The members of one object of the format (an event type's `data`, or an
/// item of a submission's `answers`): one case per member, in the format's
/// order, each spelled as the log writes it (its raw value).
///
/// The order is the writer's order and the decoder's slots; the name is what
/// the decoder matches and what every error names. Each payload type declares
/// its members once, beside its fields (`Events/Event/`), and the codec
/// derives the rest from them (``MemberLayout``).
package protocol PayloadMember: RawRepresentable<String>, CaseIterable, Hashable, Sendable where AllCases == [Self] {
    /// The least value of an integer member: 0 (a count) unless the type says otherwise.
    var minimum: Int { get }
    /// For a member holding an array of objects (a submission's `answers`),
    /// the members of those objects; nil for every other member.
    var items: (any PayloadMember.Type)? { get }
    /// The format version that defined the member: 1, or a later one for an
    /// optional member added to a version-1 type (events-v2.md, "Optional
    /// members added in version 2"). A reader of an older version keeps it as
    /// a member it does not know (``DataReader/extra``) and reads the rest as before.
    var version: Int { get }
    /// Whether the member's text refuses control characters (U+0000-U+001F,
    /// U+007F-U+009F) besides the format's 1-to-256 rule (an answer's `item`).
    var noControl: Bool { get }
}

extension PayloadMember {
    package var minimum: Int { 0 }
    package var items: (any PayloadMember.Type)? { nil }
    package var version: Int { 1 }
    package var noControl: Bool { false }

    /// Where the decoder keeps this member: its place in the format's order.
    @inline(__always) var slot: Int { declarationIndex(self) }
}

/// The place of `e`'s case in its enumeration's declaration. An enumeration
/// without payloads is, in memory, that place (the Swift ABI's layout of
/// such an enum: one byte for up to 256 cases, none for one case);
/// ``hasDeclarationIndices(_:)`` checks it, once per type, against `allCases`.
@inline(__always) func declarationIndex<E: CaseIterable>(_ e: E) -> Int {
    MemoryLayout<E>.size == 0 ? 0 : Int(unsafeBitCast(e, to: UInt8.self))
}

/// Whether every case of `E` is at its ``declarationIndex(_:)``.
func hasDeclarationIndices<E: CaseIterable>(_: E.Type) -> Bool {
    MemoryLayout<E>.size <= 1 && E.allCases.enumerated().allSatisfy { declarationIndex($0.element) == $0.offset }
}

/// The names of one object's members as the codec uses them, made once per
/// event type from its ``PayloadMember`` cases (``EventType/layout``).
package final class MemberLayout: Sendable {
    /// The members in the format's order, as the tokens the decoder matches
    /// the writer's order with (`,"name":`); slot k is member k.
    let tokens: [NameToken]
    /// The members' names, by slot.
    let names: [String]
    /// The names as the decoder compares them with a line, by slot.
    let spellings: [Spelling]
    /// What the encoder writes before a member's value after another member (`,"name":`), by slot.
    let written: [[UInt8]]
    /// The member holding an array of objects, and those objects' layout.
    let items: (slot: Int, layout: MemberLayout)?

    /// The most members one object may declare (the decoder's ``Slots``).
    static let capacity = 9

    /// The layout of `M`'s members.
    package init<M: PayloadMember>(_: M.Type) {
        let members = M.allCases
        precondition(members.count <= MemberLayout.capacity, "an object of the format has at most \(MemberLayout.capacity) members")
        precondition(hasDeclarationIndices(M.self), "a member's slot is its case's place")
        tokens = members.enumerated().map { NameToken($0.element.rawValue, slot: $0.offset, first: $0.offset == 0) }
        names = members.map(\.rawValue)
        spellings = names.map(Spelling.init)
        written = names.map { Array(",\"\($0)\":".utf8) }
        precondition(names.allSatisfy { $0.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") } },
                     "a member's name is written as it is, with no escape")
        items = members.lazy.compactMap { m in m.items.map { (slot: m.slot, layout: MemberLayout.of($0)) } }.first
    }

    private static func of<M: PayloadMember>(_ m: M.Type) -> MemberLayout { MemberLayout(m) }

    /// The slot of the member named by exactly these bytes; nil when the object has no such member.
    @inline(__always) func slot<B: NameBytes>(_ name: B) -> Int? {
        for (slot, spelling) in spellings.enumerated() where name.equals(spelling) { return slot }
        return nil
    }
}
