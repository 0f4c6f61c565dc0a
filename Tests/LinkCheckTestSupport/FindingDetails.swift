import LinkCheckAnalysis

extension Finding {
    /// The finding's typed detail (``FindingDetail``); `nil` for a finding
    /// of a kind whose statement is still words.
    public var typedDetail: FindingDetail? {
        guard case .detail(let detail, _) = statement else { return nil }
        return detail
    }
}
