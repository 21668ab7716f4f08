/// `lesson` or `passage`.
extension SubmissionMade.Kind: Codable {}
