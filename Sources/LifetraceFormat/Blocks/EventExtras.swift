/// The fields of an ``EventRecord`` that few events carry, kept aside in ``EventBlock/extras``.
package struct EventExtras: Sendable {
    /// The background task identifier; 0 when absent.
    package var task: Int64 = 0
    /// The process identifier; 0 when absent.
    package var pid: Int64 = 0
    /// The background task's name.
    package var name: EventRecord.StringIndex = EventRecord.absent
    /// The launch or exit reason.
    package var reason: EventRecord.StringIndex = EventRecord.absent
    /// For custom events, the label.
    package var label: EventRecord.StringIndex = EventRecord.absent
    /// The first of the event's attributes in ``EventBlock/attributes``.
    package var attributeStart: Int32 = 0
    /// The number of attributes; -1 when the event carries no `attrs` field at all.
    package var attributeCount: Int32 = -1

    /// Extras with no field set.
    package init() {}
}
