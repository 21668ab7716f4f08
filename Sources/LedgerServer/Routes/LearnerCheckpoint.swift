import Ledger
import SyncWire

extension Route {
    /// `GET /v1/learners/{user}/checkpoint`: the learner log's signed
    /// checkpoint at its head (C2SP `tlog-checkpoint` in a `signed-note`,
    /// docs/receipts.md), origin `ORIGIN/USER`, as `text/plain`. `404
    /// no_checkpoint_key` when the server was started without `--key`. The
    /// log is read whole as it is at one moment (under its writer; over
    /// PostgreSQL, its rows of one snapshot), so no push lands between its
    /// head and its tree; a learner without a log gets the empty tree's.
    static let learnerCheckpoint = Route(method: "GET", path: .learnerCheckpoint,
                                         access: .learner) { request, context throws(HTTPError) in
        guard let key = context.checkpointKey else {
            throw HTTPError(404, "no_checkpoint_key", "this server signs no checkpoints (start it with --key and --origin)")
        }
        let origin = key.origin(user: request.learner)
        let signed = try context.store.withLearnerLog(user: request.learner) { (directory, lines) throws(LedgerError) -> Result<SignedCheckpoint, ReceiptError> in
            guard let lines else {
                return Result { () throws(ReceiptError) in
                    try SignedCheckpoint.sign(try Checkpoint(origin: origin, head: TreeHead(size: 0, root: MerkleTree.emptyRoot)), with: key.signer)
                }
            }
            let tree = try LogTree(directory: directory, user: request.learner)
            let signed = Result { () throws(ReceiptError) in try tree.checkpoint(origin: origin, signer: key.signer, size: lines) }
            // A failure to read the log is answered as the store answers a ledger error (named by its place in the directory).
            if case .failure(let error) = signed, let cause = error.cause { throw cause }
            return signed
        }
        switch signed {
        case .success(let checkpoint):
            return Response(status: 200, fields: [("Content-Type", "text/plain; charset=utf-8")], body: .bytes(checkpoint.encoded))
        case .failure(let error):
            throw HTTPError(500, error.kind.rawValue, error.description)
        }
    }
}
