@testable import Events

// Frozen copy of the former library code: see ReferenceLineCodec.swift.
/// Turns a parsed line into a ``Record`` or a ``NewEvent``, enforcing every
/// rule of the envelope and of the type's `data`.
enum ReferenceRecordDecoder {
    static let envelopeMembers: Set<String> = ["v", "seq", "id", "at", "user", "device", "type", "data", "prev"]

    static func record(from members: [JSONMember]) throws(EventError) -> Record {
        let r = ReferenceMemberReader(members, path: "", kind: .invalidEnvelope)
        let v = try version(r, required: true)
        let seq = try r.integer("seq", min: 1)
        let id = try self.id(r)
        if v > Envelope.version {
            let prev = try self.prev(r)
            var user: String? = nil
            if case .string(let u)? = r.raw("user") { user = u }
            var type: String? = nil
            if case .string(let t)? = r.raw("type") { type = t }
            return .newer(NewerVersionLine(version: v, seq: seq, id: id, user: user, prev: prev, type: type))
        }
        let at = try timestamp(r)
        let user = try r.string("user", max: 128, noControl: true)
        let device = try r.optionalString("device", max: 128, noControl: true)
        let type = try r.enumeration("type", EventType.self)
        let data = try self.data(r)
        let prev = try self.prev(r)
        try rejectUnknown(r)
        let event = try ReferenceEventDecoder.event(type, data)
        return .v1(Envelope(seq: seq, id: id, at: at, user: user, device: device, event: event, prev: prev))
    }

    static func newEvent(from members: [JSONMember]) throws(EventError) -> NewEvent {
        let r = ReferenceMemberReader(members, path: "", kind: .invalidEnvelope)
        let v = try version(r, required: false)
        guard v == Envelope.version else {
            throw r.error("v", "must be 1: this ledger appends format version 1 only (got \(v))")
        }
        for assigned in ["seq", "prev"] where r.raw(assigned) != nil {
            throw r.error(assigned, "is assigned by the ledger at append; leave it out")
        }
        let id: String? = r.optional("id") == nil ? nil : try self.id(r)
        let at = try timestamp(r)
        let user = try r.string("user", max: 128, noControl: true)
        let device = try r.optionalString("device", max: 128, noControl: true)
        let type = try r.enumeration("type", EventType.self)
        let data = try self.data(r)
        try rejectUnknown(r)
        let event = try ReferenceEventDecoder.event(type, data)
        return NewEvent(id: id, at: at, user: user, device: device, event: event)
    }

    private static func version(_ r: ReferenceMemberReader, required: Bool) throws(EventError) -> Int {
        guard required || r.raw("v") != nil else { return Envelope.version }
        let v = try r.integer("v")
        guard v >= 1 else { throw r.error("v", "must be 1 or a newer format version (got \(v))") }
        return v
    }

    private static func id(_ r: ReferenceMemberReader) throws(EventError) -> String {
        let v = try r.required("id")
        guard case .string(let s) = v else { throw r.error("id", "must be a string, not \(v.referenceTypeName)") }
        guard isValidID(s) else {
            throw r.error("id", "must be 1 to 64 characters of A-Z a-z 0-9 . _ : - (got \"\(s.referencePrefix)\")")
        }
        return s
    }

    /// Whether `s` is 1 to 64 characters of `A-Z a-z 0-9 . _ : -`.
    static func isValidID(_ s: String) -> Bool {
        let u = s.utf8
        guard (1...64).contains(u.count) else { return false }
        return u.allSatisfy { c in
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
                || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") || c == UInt8(ascii: "-")
        }
    }

    private static func timestamp(_ r: ReferenceMemberReader) throws(EventError) -> Timestamp {
        let v = try r.required("at")
        guard case .string(let s) = v else { throw r.error("at", "must be an RFC 3339 string, not \(v.referenceTypeName)") }
        do {
            return try ReferenceTimestamp.parse(s)
        } catch {
            throw r.error("at", "\(error) (got \"\(s.referencePrefix)\")")
        }
    }

    private static func data(_ r: ReferenceMemberReader) throws(EventError) -> [JSONMember] {
        let v = try r.required("data")
        guard case .object(let members) = v else { throw r.error("data", "must be an object, not \(v.referenceTypeName)") }
        return members
    }

    private static func prev(_ r: ReferenceMemberReader) throws(EventError) -> String {
        let v = try r.required("prev")
        guard case .string(let s) = v, s.utf8.count == 64,
              s.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
        else { throw r.error("prev", "must be 64 lowercase hex digits (a SHA-256)") }
        return s
    }

    private static func rejectUnknown(_ r: ReferenceMemberReader) throws(EventError) {
        if let m = r.members.first(where: { !envelopeMembers.contains($0.name) }) {
            throw r.error(m.name, "is not an envelope member of format version 1 (put extra members in data)")
        }
    }
}
