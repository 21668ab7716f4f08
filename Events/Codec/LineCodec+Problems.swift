/// Every member's problem of an event to append, not only the first.
extension LineCodec {
    /// The problems of an event to append, one per member: the first as
    /// `decodeNewEvent(_:)` throws it; then, with that member set aside,
    /// the next one the decoder finds, and so on. Empty when the line decodes.
    ///
    /// The decoder stays the only judge: a member is set aside by trying
    /// stand-ins (removing it, or one of a few plain values and the format's
    /// own names) until the decoder no longer finds a problem with it. The
    /// search stops at a problem of the whole line (not JSON, too long...),
    /// at a member no stand-in satisfies, or after 32 problems.
    public static func problems<Bytes: Collection<UInt8>>(ofNewEvent line: Bytes) -> [EventError] {
        var bytes = Array(line)
        var found: [EventError] = []
        while found.count < 32 {
            let problem: EventError
            do { _ = try decodeNewEvent(bytes); break } catch { problem = error }
            found.append(problem)
            guard let member = problem.member,
                  let document = try? JSONDocument.parse(bytes),
                  let next = standIns.lazy.compactMap({ stand -> [UInt8]? in
                      guard let changed = document.setting(member[...], to: stand) else { return nil }
                      var w = JSONWriter()
                      w.value(changed)
                      do throws(EventError) { _ = try decodeNewEvent(w.bytes); return w.bytes } catch {
                          return error.member == member ? nil : w.bytes
                      }
                  }).first else { break }
            bytes = next
        }
        return found
    }

    /// What a member is replaced by to look past its problem: nil removes it.
    private static let standIns: [JSONValue?] = {
        var values: [JSONValue?] = [nil, .number("1"), .string("x"), .bool(true), .string("2025-01-01T00:00:00Z"),
                                    .array([]), .object([])]
        let names = HintsGranted.Reason.allCases.map(\.rawValue) + HintUsed.Kind.allCases.map(\.rawValue)
            + SubmissionMade.Kind.allCases.map(\.rawValue) + ProgressReset.Scope.allCases.map(\.rawValue)
        values += names.map { .string($0) }
        return values
    }()
}

extension JSONValue {
    /// This value with the member at `path` (`data.answers[2].choice`) set to
    /// `value` (added when absent), or removed when `value` is nil; nil when
    /// the path does not lead through objects and arrays of this value.
    func setting(_ path: Substring, to value: JSONValue?) -> JSONValue? {
        if path.isEmpty { return value }
        // The first step: a name, then any [i] indices.
        let end = path.firstIndex(where: { $0 == "." || $0 == "[" }) ?? path.endIndex
        if path.first == "[" {
            guard let close = path.firstIndex(of: "]"), let i = Int(path[path.index(after: path.startIndex)..<close]),
                  case .array(var items) = self, items.indices.contains(i) else { return nil }
            var rest = path[path.index(after: close)...]
            if rest.first == "." { rest = rest.dropFirst() }
            if rest.isEmpty, value == nil { items.remove(at: i); return .array(items) }
            guard let changed = items[i].setting(rest, to: value) else { return nil }
            items[i] = changed
            return .array(items)
        }
        guard case .object(var members) = self else { return nil }
        let name = String(path[..<end])
        var rest = path[end...]
        if rest.first == "." { rest = rest.dropFirst() }
        if let k = members.firstIndex(where: { $0.name == name }) {
            if rest.isEmpty, value == nil { members.remove(at: k); return .object(members) }
            guard let changed = members[k].value.setting(rest, to: value) else { return nil }
            members[k].value = changed
        } else {
            guard rest.isEmpty, let value else { return nil }
            members.append(JSONMember(name, value))
        }
        return .object(members)
    }
}
