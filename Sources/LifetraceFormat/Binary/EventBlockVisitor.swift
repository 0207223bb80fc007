import LifetraceCore

/// What the walk over a block's events (``EventBlockDecoder/walk(_:strings:_:)``) hands each event's parts to, in
/// the order the format stores them, once the walk has checked them.
///
/// The walk is generic over its visitor and specialized for each: a visitor that writes records
/// (``EventRecordWriter``) makes the full decode, one that only counts (``EventTallyVisitor``) makes the pass
/// `lifetrace info` needs; both check every byte of the block alike, so they fail at the same byte with the same
/// message. A hook a visitor leaves empty costs nothing.
protocol EventBlockVisitor {
    /// Whether the visitor reads each event's time and duration (``time(_:t:dur:)``). One that does not lets
    /// the walk check the block's times as a whole (``EventBlockLayout/endIfTimesFit()``), without decoding the
    /// integer columns, whenever that shows them in range.
    static var readsTimes: Bool { get }
    /// Event `i`, of a kind this library knows, carrying `fields`; its other parts follow.
    mutating func event(_ i: Int, kind: EventKind, tag: UInt8, fields: EventFields)
    /// Event `i`, of a kind newer than this library, carrying `fields`: read past, not to be reported.
    mutating func unknownEvent(_ i: Int, fields: EventFields)
    /// Event `i`'s timestamp and duration (0 when it carries none); called only if ``readsTimes``, or when the
    /// walk checks each event's time.
    mutating func time(_ i: Int, t: Int64, dur: Int64)
    /// Event `i`'s scene, a string of the block.
    mutating func scene(_ i: Int, _ scene: EventRecord.StringIndex)
    /// Event `i`'s SwiftUI scene phase.
    mutating func phase(_ i: Int, _ phase: ScenePhase)
    /// An attribute of the event being walked, in order; its ``EventExtras`` follow.
    mutating func attribute(_ attribute: RecordAttribute)
    /// The fields few events carry, of event `i`: called only when it carries one of ``EventRecord/extraFields``.
    mutating func extras(_ i: Int, _ extras: EventExtras)
}
