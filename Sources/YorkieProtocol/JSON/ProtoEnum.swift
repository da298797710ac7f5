import CRDT
import Foundation

/// An enum of Yorkie's API: values by number, names as the proto spells them.
package protocol ProtoEnum: RawRepresentable, CaseIterable, Sendable, Equatable where RawValue == Int32 {
  /// The proto name of the value (`VALUE_TYPE_STRING`).
  var protoName: String { get }
}

extension ProtoEnum {
  /// The value named `name`, if any.
  package init?(protoName name: String) {
    guard let match = Self.allCases.first(where: { $0.protoName == name }) else { return nil }
    self = match
  }
}
