extension ExportCategory {
    /// The category's position in `allCases`.
    var ordinal: Int {
        switch self {
        case .callback: 0
        case .state: 1
        case .task: 2
        case .process: 3
        case .system: 4
        case .marker: 5
        case .finding: 6
        }
    }
}
