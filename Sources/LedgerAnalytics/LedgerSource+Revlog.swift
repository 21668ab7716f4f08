import Events
import Ledger
import Projections

extension LedgerSource {
    /// `export --format revlog`: every learner's reviews (only `user`'s when
    /// given) as the CSV the open-source FSRS optimizer reads, one row per
    /// review: `card_id,review_time,review_rating,review_state,review_duration`
    /// (docs/projections.md, "review"). Cards in `Revlog`'s order, each
    /// card's reviews in time order. Nothing is returned when a log is
    /// damaged (the read throws first).
    package func revlog(user: String?, progress: ReadProgress?, warning: (ReadWarning) -> Void) throws(LedgerError) -> [UInt8] {
        var revlog = Revlog()
        try forEachRecord(user: user, progress: progress, warning: warning) { revlog.add($0) }
        var csv = Array("card_id,review_time,review_rating,review_state,review_duration\n".utf8)
        for card in revlog.cards {
            let id = String(Self.cardID(card))
            for (k, review) in card.reviews.enumerated() {
                // Epoch milliseconds, rounded down; state 0 (new) for a card's first review, 2 (review) after.
                let milliseconds = review.at.seconds * 1000 + Int64(review.at.nanoseconds / 1_000_000)
                csv += Array("\(id),\(milliseconds),\(review.rating.rawValue),\(k == 0 ? 0 : 2),\(review.ms ?? 0)\n".utf8)
            }
        }
        return csv
    }

    /// A card's id: a stable integer that depends only on the card (the same
    /// in every export, of a LOG or its ledger directory, with or without
    /// `--user`): the first 8 bytes of the SHA-256 of the netstrings
    /// `LEN:user,LEN:kind,LEN:source,LEN:question,LEN:generation,` (LEN the
    /// UTF-8 byte count in decimal) as a big-endian integer, its top bit
    /// cleared (0 … 2^63 - 1, a non-negative 64-bit integer). A card with
    /// `item`: the netstrings `LEN:user,4:item,LEN:item,LEN:generation,`.
    package static func cardID(_ card: Revlog.Card) -> Int64 {
        var text: [UInt8] = []
        let fields = card.item.map { [card.user, "item", $0, String(card.generation)] }
            ?? [card.user, card.kind.rawValue, card.source, card.question, String(card.generation)]
        for field in fields {
            text += Array("\(field.utf8.count):".utf8) + Array(field.utf8) + [UInt8(ascii: ",")]
        }
        let digest = SHA256.hash(text).bytes
        let high = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int64(bitPattern: high & (UInt64.max >> 1))
    }
}
