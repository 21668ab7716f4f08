import Ledger
import SyncWire

extension Route {
    /// `GET /v1/learners/{user}/checkpoint`: the learner log's signed
    /// checkpoint at its head (C2SP `tlog-checkpoint` in a `signed-note`,
    /// docs/receipts.md), origin `ORIGIN/USER`, as `text/plain`. `404
    /// no_checkpoint_key` when the server was started without `--key`. The
    /// log is read whole under its writer, so no push lands between its
    /// head and its tree; a learner without a log gets the empty tree's.
    static let learnerCheckpoint = Route(method: "GET", path: .learnerCheckpoint,
                                         access: .learner) { request, context throws(HTTPError) in
        guard let key = context.checkpointKey else {
            throw HTTPError(404, "no_checkpoint_key", "this server signs no checkpoints (start it with --key and --origin)")
        }
        guard let files = context.store as? DirectoryStore else { throw .notOnThisStore("a learner's checkpoint") }
        let origin = key.origin(user: request.learner)
        let signed: Result<SignedCheckpoint, ReceiptError>
        do throws(LedgerError) {
            signed = try files.logs.withWriter(user: request.learner, create: false) { (writer) throws(LedgerError) -> Result<SignedCheckpoint, ReceiptError> in
                guard let writer else {
                    return Result { () throws(ReceiptError) in
                        try SignedCheckpoint.sign(try Checkpoint(origin: origin, head: TreeHead(size: 0, root: MerkleTree.emptyRoot)), with: key.signer)
                    }
                }
                let head = try writer.refreshedHead()
                let tree = try LogTree(directory: files.ledger, user: request.learner)
                return Result { () throws(ReceiptError) in try tree.checkpoint(origin: origin, signer: key.signer, size: head.seq) }
            }
        } catch {
            throw HTTPError(server: error, directory: files.ledger)
        }
        switch signed {
        case .success(let checkpoint):
            return Response(status: 200, fields: [("Content-Type", "text/plain; charset=utf-8")], body: .bytes(checkpoint.encoded))
        case .failure(let error):
            if let cause = error.cause { throw HTTPError(server: cause, directory: files.ledger) }
            throw HTTPError(500, error.kind.rawValue, error.description)
        }
    }
}
