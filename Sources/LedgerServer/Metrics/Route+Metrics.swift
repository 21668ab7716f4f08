extension Route {
    /// `GET /metrics`: every metric in Prometheus's text format (an admin
    /// token; or, without one, on `serve --metrics-listen`'s own address).
    static let metrics = Route(method: "GET", path: [.literal("metrics")], access: .admin) { _, context throws(HTTPError) in
        Response.metrics(context.metrics)
    }

    /// The route as the metrics label it: its method and path template,
    /// `/v1/learners/{user}/events` (so a learner's id is never a label).
    var label: ServerMetrics.RouteLabel { ServerMetrics.RouteLabel(method: method, path: template) }

    /// The route's path template: `/v1/learners/{user}/events`.
    var template: String { path.description }
}

extension Response {
    /// `200` with a scrape of `metrics`.
    static func metrics(_ metrics: ServerMetrics) -> Response {
        Response(status: 200, fields: [("Content-Type", PrometheusText.contentType)], body: .bytes(metrics.render()))
    }
}
