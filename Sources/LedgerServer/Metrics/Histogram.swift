/// Counts of observed durations by upper bound (Prometheus's cumulative
/// `le` buckets), their sum and their number. Durations are kept in whole
/// nanoseconds, so the sum does not drift; they are written in seconds.
/// A plain value: the registry holding it guards it with its lock.
struct Histogram: Sendable {
    /// Upper bounds in nanoseconds, ascending (the `+Inf` bucket is `count`).
    let bounds: [UInt64]
    /// Observations at most `bounds[k]` and above `bounds[k - 1]` (not cumulative).
    private(set) var buckets: [UInt64]
    private(set) var sumNanoseconds: UInt64 = 0
    private(set) var count: UInt64 = 0

    init(bounds: [UInt64]) {
        self.bounds = bounds
        buckets = [UInt64](repeating: 0, count: bounds.count)
    }

    /// Latencies of requests: 0.5 ms to 10 s.
    static let requestBounds: [UInt64] = [500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000,
                                          100_000_000, 250_000_000, 500_000_000, 1_000_000_000, 2_500_000_000, 10_000_000_000]
    /// fsync times: 0.1 ms to 5 s (a fast SSD's is under a millisecond, a busy disk's tens).
    static let fsyncBounds: [UInt64] = [100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000,
                                        50_000_000, 100_000_000, 250_000_000, 1_000_000_000, 5_000_000_000]

    /// Counts one observation of `nanoseconds`.
    mutating func observe(_ nanoseconds: UInt64) {
        count &+= 1
        sumNanoseconds &+= nanoseconds
        // A handful of bounds: a linear search is as fast as a binary one.
        if let k = bounds.firstIndex(where: { nanoseconds <= $0 }) { buckets[k] &+= 1 }
    }

    /// Writes the `_bucket` (cumulative, then `+Inf`), `_sum` and `_count` samples of `name` with `labels`.
    func write(_ name: String, labels: [(String, String)], to text: inout PrometheusText) {
        var cumulative: UInt64 = 0
        for (bound, n) in zip(bounds, buckets) {
            cumulative += n
            text.sample(name + "_bucket", labels + [("le", PrometheusText.seconds(bound))], String(cumulative))
        }
        text.sample(name + "_bucket", labels + [("le", "+Inf")], String(count))
        text.sample(name + "_sum", labels, PrometheusText.seconds(sumNanoseconds))
        text.sample(name + "_count", labels, String(count))
    }
}
