#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A non-blocking pipe that wakes the event loop out of `poll(2)`: any thread ``wake()``s it by
/// writing one byte, and the loop polls ``readFD`` and ``drain()``s it.
///
/// Ownership: the ``LoopInbox`` that creates it owns both descriptors; it calls ``wake()`` and
/// ``close()`` only while holding its lock, so no thread can write to a descriptor number that has
/// been closed (and perhaps reused by another socket).
struct WakeUpPipe: Sendable {
  /// The end the event loop polls for readability.
  let readFD: Int32
  /// The end that ``wake()`` writes to.
  let writeFD: Int32

  /// A new pipe with both ends non-blocking.
  init() throws(SocketError) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw SocketError.current("pipe") }
    readFD = fds[0]
    writeFD = fds[1]
    do {
      try Socket.setNonBlocking(readFD)
      try Socket.setNonBlocking(writeFD)
    } catch {
      close()
      throw error
    }
  }

  /// Makes the read end readable. A full pipe already wakes the loop, so `EAGAIN` is ignored.
  func wake() {
    var byte: UInt8 = 1
    _ = write(writeFD, &byte, 1)
  }

  /// Reads and discards every pending wake-up byte (called by the loop thread).
  func drain() {
    var scratch = [UInt8](repeating: 0, count: 64)
    while scratch.withUnsafeMutableBytes({ read(readFD, $0.baseAddress, $0.count) }) > 0 {}
  }

  /// Closes both ends.
  func close() {
    Socket.close(readFD)
    Socket.close(writeFD)
  }
}
