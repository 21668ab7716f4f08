/// The path of an endpoint of the sync API, as a template
/// (`/v1/learners/{user}/events`): the client builds a learner's path from
/// it, the server matches a request's path against it. The learner's id is
/// one segment, percent-encoded (``PercentEncoding``): any id the format
/// allows, `/`, spaces and non-ASCII included.
package struct RoutePath: Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// A part of a path.
    package enum Segment: Sendable {
        /// This text exactly.
        case literal(String)
        /// A learner's id, percent-encoded.
        case user
    }

    /// The segments, `/` between them.
    package var segments: [Segment]

    /// A path of these segments.
    package init(arrayLiteral segments: Segment...) { self.segments = segments }

    /// `POST` (push) and `GET` (pull) of a learner's events.
    package static let learnerEvents: RoutePath = [.literal("v1"), .literal("learners"), .user, .literal("events")]
    /// A learner log's head.
    package static let learnerHead: RoutePath = [.literal("v1"), .literal("learners"), .user, .literal("head")]
    /// A learner's state.
    package static let learnerState: RoutePath = [.literal("v1"), .literal("learners"), .user, .literal("state")]
    /// A learner log's signed checkpoint.
    package static let learnerCheckpoint: RoutePath = [.literal("v1"), .literal("learners"), .user, .literal("checkpoint")]

    /// The template: `/v1/learners/{user}/events` (never a learner's id: the metrics' label).
    package var description: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .user: "{user}"
            }
        }.joined(separator: "/")
    }

    /// The path for `user`: `/v1/learners/caf%C3%A9/events`.
    package func path(user: String) -> String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .user: PercentEncoding.encode(user)
            }
        }.joined(separator: "/")
    }

    /// How a request's path compares with a template.
    package enum Match: Sendable {
        /// It is this path, naming this learner (nil for a path without one).
        case matches(user: String?)
        /// It is another path.
        case differs
        /// Its learner segment is not percent-encoded UTF-8 (reached before a
        /// literal that differs: such a path is refused, never matched on).
        case badUser
    }

    /// `path` (percent-encoded, from its leading `/`, no query) against this
    /// template, segment by segment in order; the learner's id decoded.
    package func match(_ path: String) -> Match {
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        guard parts.count == segments.count else { return .differs }
        var user: String? = nil
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text):
                if !part.elementsEqual(text.utf8) { return .differs }
            case .user:
                guard let decoded = PercentEncoding.decode(part) else { return .badUser }
                user = decoded
            }
        }
        return .matches(user: user)
    }
}
