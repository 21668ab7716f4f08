import Events

extension FSRSScheduler {
    /// Reads a parameters file (`--fsrs-params FILE`): a JSON array of 21
    /// numbers, `w[0]` … `w[20]`, as the open-source FSRS optimizer prints them.
    ///
    /// Throws ``FSRSError`` naming the line and column of bad JSON or the
    /// element that is not a number; the bounds are checked by
    /// ``init(parameters:desiredRetention:)``.
    public static func parameters<Bytes: Collection<UInt8>>(json bytes: Bytes) throws(FSRSError) -> [Double] {
        let value: JSONValue
        do {
            value = try JSONDocument.parse(Array(bytes))
        } catch {
            throw FSRSError("not valid JSON: \(error.message)")
        }
        guard case .array(let items) = value else {
            throw FSRSError("must be a JSON array of \(defaultParameters.count) numbers (w[0] … w[20])")
        }
        var parameters: [Double] = []
        for (i, item) in items.enumerated() {
            guard case .number(let literal) = item, let w = Double(literal), w.isFinite else {
                throw FSRSError("element [\(i)] must be a finite number")
            }
            parameters.append(w)
        }
        return parameters
    }
}
