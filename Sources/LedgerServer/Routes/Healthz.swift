extension Route {
    /// `GET /healthz`: `{"status":"ok"}` while the server runs; no token.
    static let healthz = Route(method: "GET", path: [.literal("healthz")], access: .open) { _, _ throws(HTTPError) in
        .json(Array(#"{"status":"ok"}"#.utf8) + [0x0A])
    }
}
