// Undo and redo (Yorkie's `doc.history`): each update is a step; undoing one executes its
// reverse operations as a new local change, which syncs like any other.

extension Document {
  /// Whether ``undo()`` has a step to undo.
  public var canUndo: Bool { history.canUndo }

  /// Whether ``redo()`` has a step to redo.
  public var canRedo: Bool { history.canRedo }

  /// Reverts this replica's latest undoable update (or redo), as Yorkie's `history.undo()`.
  ///
  /// The reverse operations run as a new local change: it syncs like any update, converges on
  /// every replica, and emits a ``DocEvent/localChange(_:)`` whose operation infos say what was
  /// restored; ``historyStates()`` then sends the new ``canUndo``/``canRedo``. Its step goes on
  /// the redo stack. Peers'
  /// changes are never undone: a reverse operation acts only on what this replica's update
  /// did. A reverse operation whose target a peer removed meanwhile (or whose container is
  /// removed) is skipped, as in Yorkie; text is restored by identity, so characters a peer
  /// inserted inside the range meanwhile stay.
  ///
  /// The history lives as long as this `Document`: it is neither stored nor restored, and a
  /// snapshot that replaces the content clears it.
  ///
  /// - Throws: ``YorkieError`` `nothingToUndo` when ``canUndo`` is false; `documentRemoved` or
  ///   `documentDetached` as ``update(message:_:)`` does (the step stays then).
  public func undo() throws {
    try replayHistory(.undo)
  }

  /// Applies again the step the latest ``undo()`` reverted, as Yorkie's `history.redo()`: a new
  /// local change whose step goes back on the undo stack. A new update empties the redo stack.
  ///
  /// - Throws: ``YorkieError`` `nothingToRedo` when ``canRedo`` is false; `documentRemoved` or
  ///   `documentDetached` as ``update(message:_:)`` does (the step stays then).
  public func redo() throws {
    try replayHistory(.redo)
  }

  /// ``canUndo`` and ``canRedo`` now and after every change of either: what an app's Undo and
  /// Redo buttons follow, without polling. The stream starts with the current state and then
  /// sends a state each time one of the two flags changes (an update, an undo, a redo,
  /// ``clearHistory()``, a snapshot that replaced the content); an update that leaves both
  /// flags as they were sends nothing. A state is sent after the events of the change that
  /// caused it (``events()``). Each call makes a new subscription; cancelling the consuming
  /// task ends it.
  ///
  /// ```swift
  /// for await state in await doc.historyStates() {
  ///   undoButton.isEnabled = state.canUndo
  ///   redoButton.isEnabled = state.canRedo
  /// }
  /// ```
  public func historyStates() -> AsyncStream<HistoryState> {
    let (stream, continuation) = AsyncStream<HistoryState>.makeStream(bufferingPolicy: .unbounded)
    let id = nextSubscriptionID()
    historySubscribers[id] = continuation
    continuation.yield(history.state)
    continuation.onTermination = { [weak self] _ in
      Task { await self?.unsubscribeHistory(id) }
    }
    return stream
  }

  private func unsubscribeHistory(_ id: Int) {
    historySubscribers[id] = nil
  }

  /// Sends the history's state to ``historyStates()`` subscribers when it differs from the
  /// last one sent. Called wherever the stacks may have changed; two comparisons otherwise.
  func publishHistoryState() {
    if let state = history.unpublishedState() { publish(state) }
  }

  /// Sends `state` to the ``historyStates()`` subscribers.
  func publish(_ state: HistoryState) {
    for continuation in historySubscribers.values { continuation.yield(state) }
  }

  /// Empties the undo and redo stacks (Yorkie's `clearHistory`).
  public func clearHistory() {
    history.clear()
    publishHistoryState()
  }

  /// The depth of the undo and redo stacks (tests).
  package var historyDepths: (undo: Int, redo: Int) { (history.undoCount, history.redoCount) }

  /// The number of keystrokes on the undo stack whose step still reads its operation from
  /// their pending change (tests: see ``History/PendingKeystroke``).
  package var historyPendingKeystrokeCount: Int { history.pendingKeystrokes.count }

  /// The number of re-created elements the history keeps aliases for (tests: bounded by the
  /// kept steps, not by the number of undos; see ``History/aliasCount``).
  package var historyAliasCount: Int { history.aliasCount }

  /// Puts the step of a change this replica just recorded on the right stack.
  ///
  /// - Returns: the Undo/Redo state to publish, when it changed (after the change's events).
  func recordHistory(of change: Change, context: UpdateContext, kind: LocalChangeKind) -> HistoryState? {
    // The context's own flag (a constant, read without an access check) says whether the
    // history recorded: ``update(message:_:)`` sets it from ``recordsHistory``, and an undo
    // or a redo runs only with a step, which only a recording history holds.
    guard context.recordsHistory else { return nil }
    if kind == .update && !context.hasHistoryRecording {
      if let text = context.keystrokeText {
        // The change stays in ``localChanges`` until acknowledged: the step reads its
        // operation from there (``History/PendingKeystroke``).
        return history.recordKeystroke(clientSeq: change.id.clientSeq, parent: text, plainRemoval: context.takePlainRemoval())
      }
      return history.recordUpdate(operations: change.operations, plainRemoval: context.takePlainRemoval())
    }
    var recording = HistoryRecording()
    context.takeHistoryRecording(into: &recording)
    switch kind {
    case .update:
      // One access to the history for the push and the state, the step written in place.
      // (ArraySets' replaced elements are collected by the context as it ran: an update
      // without one spends nothing on them.)
      return history.recordUpdate(operations: change.operations, recording: &recording)
    case .undo:
      history.pushRedo(operations: change.operations, recording: &recording)
    case .redo:
      history.pushUndo(operations: change.operations, recording: &recording)
    }
    return history.unpublishedState()
  }

  /// Undoes or redoes the top step: its reverse operations, newest first, run as a new change.
  private func replayHistory(_ kind: LocalChangeKind) throws {
    guard status != .removed else {
      throw YorkieError(.documentRemoved, "document \(key) was removed and cannot be edited")
    }
    if let ending = attachmentEnding {
      throw YorkieError(.documentDetached, "document \"\(key)\" is no longer attached (\(ending)): an undo would reach no one")
    }
    let popped = kind == .undo ? history.popUndo(pendingChanges: localChanges) : history.popRedo()
    guard var step = popped else {
      throw kind == .undo ? YorkieError(.nothingToUndo, "there is no update to undo")
        : YorkieError(.nothingToRedo, "there is no undone update to redo")
    }
    history.readRemovedContent(of: &step, in: root)
    let context = UpdateContext(root: root, journal: journal, nextID: changeID.next(), describing: hasSubscribers,
                                recordsHistory: true, replaysHistory: true)
    let presence = Presence(context: context, data: presenceMap[changeID.actorID] ?? [:])
    if let values = step.presence { presence.restore(values) }
    var nextCapture = step.captures.count - 1
    for index in step.operations.indices.reversed() {
      var capture: HistoryCapture? = nil
      while nextCapture >= 0 && step.captures.operationIndex(at: nextCapture) > index { nextCapture -= 1 }
      if nextCapture >= 0 && step.captures.operationIndex(at: nextCapture) == index { capture = step.captures[nextCapture].capture }
      let templates = step.operations[index].reverse(capture: capture) { createdAt in
        guard case .text(let text) = root.element(history.resolve(createdAt))?.kind else { return nil }
        return text
      }
      for template in templates {
        // A closure that reads the history, not `history.resolve`: the method as a value
        // captured a copy of the whole history (its stacks and aliases retained and released)
        // per reverse operation.
        let operation = template.restamped(context.issueTicket) { history.resolve($0) }
        var pushed = context.pushReverse(operation)
        if pushed == nil && history.hasAliases {
          // An alias may name what a later operation of the step put in the element's place (an
          // ArraySet), in a container this undo brought back as it was before that operation
          // (the ArraySet's own reverse was skipped, its array removed then): the identity the
          // operation was recorded with is the one there (fuzz seed 14278501). Where no alias
          // applied, this is the same operation, skipped again.
          pushed = context.pushReverse(template.restamped(context.issueTicket) { $0 })
        }
        guard let executed = pushed else { continue }
        for (old, new) in executed.recreated(from: template) { history.alias(old, to: new) }
      }
    }
    let recorded: Bool
    do {
      recorded = try commitLocal(context, presence: presence, message: nil, kind: kind)
    } catch {
      // The recorder refused the change (rolled back): the step stays where it was.
      if kind == .undo { history.pushUndo(step) } else { history.pushRedo(step) }
      throw error
    }
    // A step whose every reverse was skipped records nothing; the step is used up all the same.
    if !recorded { publishHistoryState() }
  }
}
