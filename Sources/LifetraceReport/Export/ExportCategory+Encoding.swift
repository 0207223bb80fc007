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

    /// The category's name (its raw value) as a literal, for writers that copy its bytes.
    var literal: StaticString {
        switch self {
        case .callback: "callback"
        case .state: "state"
        case .task: "task"
        case .process: "process"
        case .system: "system"
        case .marker: "marker"
        case .finding: "finding"
        }
    }
}
