/// How many instances of the UI models are in each kind of state: where the UI is, in constant time.
struct UICounts {
    private var active = 0
    private var inactive = 0
    private var background = 0

    @inline(__always)
    mutating func add(_ accounting: LifecycleModel.Accounting, _ delta: Int) {
        switch accounting {
        case .active: active += delta
        case .inactive: inactive += delta
        case .background: background += delta
        case .none: break
        }
    }

    /// `.active` if any instance is active, `.inactive` if any is in the foreground, `.background` if any
    /// is in the background, `.none` if none is attached.
    var state: LifecycleModel.Accounting {
        active > 0 ? .active : inactive > 0 ? .inactive : background > 0 ? .background : .none
    }
}
