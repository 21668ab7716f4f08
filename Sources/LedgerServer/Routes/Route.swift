import Events
import Ledger
import SyncWire

/// One endpoint of the API: its method and path, who may call it, the query
/// it takes, whether it reads a body, and the handler that answers it (run
/// on a worker thread). Each route is declared in a file of its own
/// (`Routes/PushEvents.swift`...) and listed once in ``Route/all``.
struct Route: Sendable {
    /// Who may call a route.
    enum Access: Sendable {
        /// Anyone (`/healthz`).
        case open
        /// A `learner` token for the path's learner, or an `admin` token.
        case learner
        /// An `admin` token.
        case admin
    }

    /// `GET` or `POST`.
    var method: String
    /// The path (the wire's template: the client builds the same).
    var path: RoutePath
    /// Who may call it.
    var access: Access
    /// The query parameters it takes.
    var query: [String] = []
    /// Whether it reads a body (the others refuse one).
    var takesBody = false
    /// Whether its requests count toward the learner's push rate
    /// (`--max-push-rate`): a learner past it is refused before the body is read.
    var pushRated = false
    /// Answers a request (on a worker thread).
    var handle: @Sendable (RouteRequest, ServerContext) throws(HTTPError) -> Response

    /// Every route of the API. A new endpoint is a file in `Routes/` and one line here.
    static let all: [Route] = [.healthz, .pushEvents, .pullEvents, .learnerHead, .learnerCheckpoint, .learnerState, .report, .digest, .changeFeed,
                               .metrics]
}

/// What a handler gets: the parsed request and who made it.
struct RouteRequest: Sendable {
    /// The learner the path names (routes with a `{user}` segment).
    var user: String?
    /// The query, checked against the route's parameters.
    var query: Query
    /// The body (empty for routes that take none).
    var body: [UInt8]
    /// The verified token (nil for open routes).
    var token: Token?

    /// The path's learner (every learner route has one).
    var learner: String { user ?? "" }
}

extension Route {
    /// How a request's method and path match the routes.
    enum Match {
        /// This route, with the learner its path names.
        case found(Route, user: String?)
        /// Some route has this path, not with this method: the methods it has.
        case wrongMethod(allowed: [String])
        /// No route has this path.
        case none
    }

    /// The route for `method` and the percent-encoded `path` (`HEAD` takes a
    /// `GET` route: the answer is sent without its body); a `{user}`
    /// segment must decode to UTF-8 that the format allows as a user id (`400` otherwise).
    static func match(method: String, path: String) throws(HTTPError) -> Match {
        var allowed: [String] = []
        for route in all {
            let user: String?
            switch route.path.match(path) {
            case .differs: continue
            case .badUser: throw .badRequest("the learner id in the path is not percent-encoded UTF-8")
            case .matches(let u): user = u
            }
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                if let user, let problem = LineCodec.userProblem(user) {
                    throw .badRequest("the learner id in the path is not one the format allows: user: \(problem)")
                }
                return .found(route, user: user)
            }
            allowed.append(route.method)
            if route.method == "GET" { allowed.append("HEAD") }
        }
        return allowed.isEmpty ? .none : .wrongMethod(allowed: allowed)
    }

    /// Whether `token` may call this route for `user` (`403` otherwise).
    func authorize(_ token: Token, user: String?) throws(HTTPError) {
        switch access {
        case .open: return
        case .admin:
            guard token.scope == .admin else { throw .forbidden("this endpoint needs an admin token") }
        case .learner:
            guard token.mayAct(for: user ?? "") else {
                throw .forbidden("this token is for learner \"\(token.subject)\", not for \"\(user ?? "")\"")
            }
        }
    }
}
