import CRDT
import Foundation

// Shared, lingering document handles: `document(_:)` and `release(_:)`.

/// The state of one document key acquired through ``Client/document(_:initialPresence:syncMode:initialRoot:)``.
struct SharedDocumentHandle {
  /// The one document every acquirer of the key gets.
  let document: Document
  /// The attach every acquirer waits for (the first acquirer started it).
  let attach: Task<Void, any Error>
  /// Acquisitions not released yet.
  var uses: Int
  /// Whether the attach succeeded (set by the first acquirer that saw it succeed).
  var isAttached = false
  /// The wait of the linger delay after the last release; cancelled by a new acquisition.
  var linger: Task<Void, Never>?
  /// Counts releases to zero, so that a linger that ends late knows it was superseded.
  var lingerGeneration = 0
  /// The detach after the linger delay, while it runs; an acquisition waits for it.
  var closing: Task<Void, Never>?
}

extension Client {
  /// The document with `key`, attached and shared: every call with the same key returns the
  /// same ``Document`` instance until it is released as many times as it was acquired and the
  /// ``ClientOptions/lingerDelay`` has passed.
  ///
  /// The first call makes a `Document(key:)` and attaches it (as ``attach(_:initialPresence:syncMode:initialRoot:)``
  /// does); calls made while that attach is in flight wait for it and share it (one
  /// AttachDocument). Each call counts one use, to be ended by ``release(_:)``. Acquiring a
  /// document that lingers (released, delay not over) keeps it attached and returns it.
  /// `initialPresence`, `syncMode` and `initialRoot` apply only when the call attaches.
  ///
  /// - Parameters:
  ///   - key: The document's key.
  ///   - initialPresence: This client's presence for peers, when this call attaches.
  ///   - syncMode: How the document syncs, when this call attaches.
  ///   - initialRoot: Values for keys the document lacks after attaching, when this call
  ///     attaches (see ``attach(_:initialPresence:syncMode:initialRoot:)``).
  /// - Returns: The shared document, attached.
  /// - Throws: ``YorkieError`` `clientNotActivated`; `documentAlreadyAttached` when a document
  ///   with `key` was attached with ``attach(_:initialPresence:syncMode:initialRoot:)``; or
  ///   the attach's error (the use is not counted then).
  public func document(
    _ key: String, initialPresence: [String: JSONValue] = [:], syncMode: SyncMode = .realtime,
    initialRoot: [String: InitialValue]? = nil
  ) async throws -> Document {
    while true {
      _ = try requireActive()
      guard var handle = handles[key] else { break }
      if let closing = handle.closing {
        // The linger ended and the detach runs: wait for it, then attach anew.
        await closing.value
        continue
      }
      if handle.isAttached && documents[key]?.document !== handle.document {
        // Detached or halted behind the handle's back: it is stale.
        handle.linger?.cancel()
        handles[key] = nil
        continue
      }
      handle.uses += 1
      handle.linger?.cancel()
      handle.linger = nil
      handles[key] = handle
      return try await awaitAttach(of: handle.document, attach: handle.attach)
    }
    guard documents[key] == nil, !attaching.contains(key) else {
      throw YorkieError(.documentAlreadyAttached, "a document with key \"\(key)\" is attached to this client already")
    }
    let document = Document(key: key)
    let attach = Task { try await self.attach(document, initialPresence: initialPresence, syncMode: syncMode, initialRoot: initialRoot) }
    handles[key] = SharedDocumentHandle(document: document, attach: attach, uses: 1)
    return try await awaitAttach(of: document, attach: attach)
  }

  /// Ends one use of a document returned by ``document(_:initialPresence:syncMode:initialRoot:)``. When
  /// no use is left, the document lingers for ``ClientOptions/lingerDelay`` and is then
  /// detached, unless it was acquired again meanwhile.
  ///
  /// Releasing more often than acquiring does nothing, and so does releasing a document
  /// attached with ``attach(_:initialPresence:syncMode:initialRoot:)``. A failure of the final
  /// detach is not reported (the document is detached locally all the same).
  public func release(_ document: Document) async {
    let key = document.key
    guard var handle = handles[key], handle.document === document, handle.uses > 0 else { return }
    handle.uses -= 1
    if handle.uses == 0 {
      handle.lingerGeneration += 1
      let generation = handle.lingerGeneration
      let clock = options.environment.clock
      let delay = max(options.lingerDelay, 0)
      handle.linger = Task { [weak self] in
        do { try await clock.sleep(for: delay) } catch { return }
        await self?.lingerEnded(key: key, generation: generation)
      }
    }
    handles[key] = handle
  }

  // MARK: - Helpers

  /// Waits for the shared attach of `document`; on failure drops the handle (once) and
  /// rethrows.
  private func awaitAttach(of document: Document, attach: Task<Void, any Error>) async throws -> Document {
    let key = document.key
    do {
      try await attach.value
    } catch {
      if handles[key]?.document === document { handles[key] = nil }
      throw error
    }
    if handles[key]?.document === document { handles[key]?.isAttached = true }
    return document
  }

  /// The linger delay of the release numbered `generation` is over: detach the document
  /// unless it was acquired again (or the handle is gone).
  private func lingerEnded(key: String, generation: Int) {
    guard var handle = handles[key], handle.uses == 0, handle.lingerGeneration == generation,
      handle.closing == nil
    else { return }
    let document = handle.document
    let attach = handle.attach
    handle.linger = nil
    handle.closing = Task {
      if (try? await attach.value) != nil, self.documents[key]?.document === document {
        try? await self.detach(document)
      }
      if self.handles[key]?.document === document { self.handles[key] = nil }
    }
    handles[key] = handle
  }

  /// Ends every pending linger and forgets the shared handles (the client is deactivated;
  /// its documents are detached by the caller).
  func endSharedHandles() {
    for handle in handles.values { handle.linger?.cancel() }
    handles = [:]
  }
}
