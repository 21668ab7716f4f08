import Events

/// The state is encoded as `progress-ledger state --json` prints it (null
/// members included): the JSON writer's bytes (``LearnerState/jsonBytes``,
/// the one list of members) given to the `Encoder` as a ``JSONValue`` tree.
extension LearnerState: Encodable {
    /// Writes the state's JSON.
    public func encode(to encoder: any Encoder) throws {
        try SpecJSON.tree(jsonBytes, codingPath: encoder.codingPath).encode(to: encoder)
    }
}
