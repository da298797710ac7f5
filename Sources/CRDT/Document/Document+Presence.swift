import Foundation

// This replica's and its peers' presences, and who is online.

extension Document {
  // MARK: - Presence

  /// This replica's presence; `[:]` while detached, as in Yorkie.
  public var myPresence: [String: JSONValue] {
    guard status == .attached else { return [:] }
    return presenceMap[changeID.actorID] ?? [:]
  }

  /// The presence of an online peer (or of this replica).
  public func presence(of actorID: ActorID) -> [String: JSONValue]? {
    if actorID == changeID.actorID { return myPresence }
    guard onlineClients.contains(actorID) else { return nil }
    return presenceMap[actorID]
  }

  /// This replica and every online peer that has a presence.
  public var presences: [(actorID: ActorID, presence: [String: JSONValue])] {
    var result: [(actorID: ActorID, presence: [String: JSONValue])] = []
    if status == .attached { result.append((changeID.actorID, presenceMap[changeID.actorID] ?? [:])) }
    for actor in onlineClients.sorted() where actor != changeID.actorID {
      if let presence = presenceMap[actor] { result.append((actor, presence)) }
    }
    return result
  }

  /// Replaces the set of online peers (a client does it when its watch stream starts; a
  /// transport of the app's own when it learns who is connected). Only online peers' presences
  /// are visible through ``presence(of:)`` and ``presences``.
  public func setOnlineClients(_ clients: Set<ActorID>) {
    onlineClients = clients
  }

  /// Marks one peer online or offline (a client does it on watched and unwatched events).
  public func setOnline(_ actorID: ActorID, _ online: Bool) {
    if online { onlineClients.insert(actorID) } else { onlineClients.remove(actorID) }
  }
}
