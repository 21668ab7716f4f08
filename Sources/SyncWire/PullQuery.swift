/// The query of a pull (`GET /v1/learners/{user}/events`):
/// `after=SEQ&limit=N&wait=SECONDS`, each optional.
package enum PullQuery {
    /// The seq after which lines are sent (default 0).
    package static let after = "after"
    /// The most lines sent.
    package static let limit = "limit"
    /// Seconds to wait for a line when there is none yet.
    package static let wait = "wait"
    /// The names a pull takes.
    package static let names = [after, limit, wait]

    /// `after=SEQ&limit=N` (and `&wait=SECONDS` when given), to follow `?`.
    package static func text(after seq: Int, limit lines: Int, wait seconds: Int? = nil) -> String {
        "\(after)=\(seq)&\(limit)=\(lines)" + (seconds.map { "&\(wait)=\($0)" } ?? "")
    }
}
