/// Why a frame's bytes did not decode, and where in the frame's content.
///
/// The readers turn it into a ``TraceError`` that names the file, the frame and the byte.
struct DecodeFailure: Error {
    /// The offset in the decoded content (or payload) at which decoding stopped.
    var offset: Int
    /// What is wrong.
    var message: String
}
