extension Duration {
    /// The duration in seconds, for rates and reports.
    public var seconds: Double {
        let (seconds, attoseconds) = self.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
