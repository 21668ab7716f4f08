import Events
import Ledger

/// The answer to a push (`200` to `POST /v1/learners/{user}/events`):
/// `{"events":[{"id":…,"seq":…,"appended":…}],"head":"SEQ:SHA256"}` and an
/// LF, each event of the push in its order, `appended` false for one the log
/// already held. The server encodes it, the client decodes it.
package struct PushAnswer: Sendable {
    /// One pushed event's answer.
    package struct Event: Sendable {
        /// Its id.
        package var id: String
        /// Its seq in the learner log.
        package var seq: Int
        /// Whether this push wrote it (false: the log held it already, a push sent again).
        package var appended: Bool

        /// Makes one.
        package init(id: String, seq: Int, appended: Bool) { self.id = id; self.seq = seq; self.appended = appended }
    }

    /// Each pushed event's answer, in the push's order.
    package var events: [Event]
    /// The learner log's head after the push.
    package var head: Head

    /// Makes one.
    package init(events: [Event], head: Head) { self.events = events; self.head = head }

    /// The answer to a push the writer took: its `results`, and the head after it.
    package init(_ results: [AppendResult], head: Head) {
        self.init(events: results.map { Event(id: $0.id, seq: $0.seq, appended: $0.status == .appended) }, head: head)
    }

    /// The body's bytes.
    package var encoded: [UInt8] {
        var w = JSONWriter(capacity: 64 + events.count * 64)
        w.value(.object([
            JSONMember("events", .array(events.map { e in
                .object([JSONMember("id", .string(e.id)), JSONMember("seq", .number(String(e.seq))),
                         JSONMember("appended", .bool(e.appended))])
            })),
            JSONMember("head", .string(head.description)),
        ]))
        return w.bytes + [0x0A]
    }

    /// Decodes a body; nil when it is not this shape (each event an object with
    /// a string `id`, an integer `seq` from 1 and a boolean `appended`; `head`
    /// a head ``Head/init(parsing:)`` takes). Members it does not know are skipped.
    package init?(decoding body: [UInt8]) {
        guard case .object(let members)? = try? JSONDocument.parse(body),
              case .array(let events)? = WireJSON.member("events", of: members),
              case .string(let headText)? = WireJSON.member("head", of: members),
              let head = Head(parsing: headText) else { return nil }
        var decoded: [Event] = []
        decoded.reserveCapacity(events.count)
        for event in events {
            guard case .object(let fields) = event,
                  case .string(let id)? = WireJSON.member("id", of: fields),
                  case .number(let seqText)? = WireJSON.member("seq", of: fields),
                  let seq = WireJSON.integer(seqText), seq >= 1,
                  case .bool(let appended)? = WireJSON.member("appended", of: fields) else { return nil }
            decoded.append(Event(id: id, seq: seq, appended: appended))
        }
        self.init(events: decoded, head: head)
    }
}
