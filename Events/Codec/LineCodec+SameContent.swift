/// Whether two lines (or events) hold the same event.
extension LineCodec {
    /// The members that make an event's content: what an `id` stands for.
    public static let contentMembers = ["at", "user", "device", "type", "data"]

    /// Whether two lines hold the same content: `at`, `user`, `device`,
    /// `type` and `data` equal as JSON values (``JSONValue/isEquivalent(to:)``);
    /// a member absent from both is equal, absent from one is not. `v`,
    /// `seq`, `id` and `prev` are not compared. A line that is not a JSON
    /// object is the same as nothing.
    ///
    /// The one content comparison: the writer's `conflicting_duplicate`,
    /// `merge`, `pending` and `report` over several logs all call it.
    public static func sameContent(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard let x = try? parseObject(a), let y = try? parseObject(b) else { return false }
        return sameContent(x, y)
    }

    /// ``sameContent(_:_:)-(UnsafeRawBufferPointer,_)`` of two lines given as byte arrays.
    public static func sameContent(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { x in b.withUnsafeBytes { y in sameContent(x, y) } }
    }

    /// Whether two envelopes hold the same content (their lines compared as ``sameContent(_:_:)-(UnsafeRawBufferPointer,_)``).
    public static func sameContent(_ a: Envelope, _ b: Envelope) -> Bool {
        sameContent(encode(a), encode(b))
    }

    /// The content comparison of two parsed line objects.
    package static func sameContent(_ a: [JSONMember], _ b: [JSONMember]) -> Bool {
        contentMembers.allSatisfy { name in
            let x = a.first { $0.name == name }, y = b.first { $0.name == name }
            switch (x, y) {
            case (nil, nil): return true
            case (let x?, let y?): return x.value.isEquivalent(to: y.value)
            default: return false
            }
        }
    }
}
