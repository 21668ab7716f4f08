import Events

/// A refusal as it travels: the HTTP status, and the JSON body
/// `{"error": KIND, "message": TEXT}` and an LF (plus members of its own
/// after those two, such as `problems` or `retry_after`). The server
/// encodes it, the client decodes it.
package struct Refusal: Sendable {
    /// The status code.
    package var status: Int
    /// The refusal's kind (`unauthorized`, `invalid_data`, `conflicting_duplicate`...).
    package var kind: String
    /// What is wrong, for a person.
    package var message: String
    /// More members of the body, after `error` and `message`.
    package var members: [JSONMember]

    /// Makes one.
    package init(status: Int, kind: String, message: String, members: [JSONMember] = []) {
        self.status = status; self.kind = kind; self.message = message; self.members = members
    }

    /// The body's bytes.
    package var body: [UInt8] {
        var w = JSONWriter()
        w.value(.object([JSONMember("error", .string(kind)), JSONMember("message", .string(message))] + members))
        return w.bytes + [0x0A]
    }

    /// Decodes the answer of `status` with `body`; nil when the body is not
    /// an object with a string `error` and a string `message`. Its other
    /// members are kept in ``members``, in their order.
    package init?(status: Int, body: [UInt8]) {
        guard case .object(let all)? = try? JSONDocument.parse(body),
              case .string(let kind)? = WireJSON.member("error", of: all),
              case .string(let message)? = WireJSON.member("message", of: all) else { return nil }
        let others = all.filter { !CodePoint.equal($0.name, "error") && !CodePoint.equal($0.name, "message") }
        self.init(status: status, kind: kind, message: message, members: others)
    }
}
