import Foundation
import Testing

@testable import YorkieClient

@Suite("Sync loop decisions")
struct SyncLoopStateTests {
  typealias Plan = SyncLoopState.Plan

  @Test("realtime: one push-pull in flight; what arrives meanwhile goes together in the next")
  func coalescing() {
    var state = SyncLoopState(mode: .realtime)
    #expect(state.nextPlan() == nil)
    state.pushWanted = true
    let first = state.nextPlan()
    #expect(first == Plan(pushOnly: false, requests: []))
    state.pushWanted = true
    state.pullWanted = true
    #expect(state.nextPlan() == nil, "a second push-pull while one is in flight")
    state.succeeded(first!)
    #expect(state.nextPlan() == Plan(pushOnly: false, requests: []))
    #expect(state.pushWanted == false && state.pullWanted == false)
  }

  @Test("each mode plans what Yorkie's mode does")
  func modes() {
    func plan(_ mode: SyncMode, push: Bool, pull: Bool) -> Plan? {
      var state = SyncLoopState(mode: mode)
      state.pushWanted = push
      state.pullWanted = pull
      return state.nextPlan()
    }
    #expect(plan(.realtime, push: false, pull: true) == Plan(pushOnly: false, requests: []))
    #expect(plan(.realtimePushOnly, push: true, pull: true) == Plan(pushOnly: true, requests: []))
    #expect(plan(.realtimePushOnly, push: false, pull: true) == nil)
    #expect(plan(.realtimeSyncOff, push: true, pull: true) == nil)
    #expect(plan(.manual, push: true, pull: true) == nil)
    #expect(plan(.polling(interval: 1), push: true, pull: false) == nil, "polling pushes on its tick only")
    #expect(plan(.polling(interval: 1), push: false, pull: true) == Plan(pushOnly: false, requests: []))
  }

  @Test("the app's sync() is served in every mode, even while a retry waits")
  func requests() {
    for mode in [SyncMode.manual, .realtimeSyncOff, .realtime, .realtimePushOnly, .polling(interval: 5)] {
      var state = SyncLoopState(mode: mode)
      state.retryPending = true
      state.requests = [1, 2]
      #expect(state.nextPlan() == Plan(pushOnly: false, requests: [1, 2]), "\(mode)")
      #expect(state.requests.isEmpty)
    }
  }

  @Test("a failure keeps the work and waits for the retry delay in the automatic modes only")
  func failures() {
    var state = SyncLoopState(mode: .realtime)
    state.pushWanted = true
    let plan = state.nextPlan()!
    #expect(state.failed(plan) == true)
    #expect(state.nextPlan() == nil, "no tight loop: the retry waits")
    #expect(state.pushWanted && state.pullWanted)
    state.retryDue()
    #expect(state.nextPlan() == Plan(pushOnly: false, requests: []))

    var manual = SyncLoopState(mode: .manual)
    manual.requests = [7]
    let request = manual.nextPlan()!
    #expect(manual.failed(request) == false)
    #expect(manual.nextPlan() == nil)
  }

  @Test("switching to realtime pulls what the other modes left; stopping fails waiting calls")
  func switchingAndStopping() {
    var state = SyncLoopState(mode: .realtimePushOnly)
    state.pullWanted = false
    state.changeMode(to: .realtime)
    #expect(state.nextPlan() == Plan(pushOnly: false, requests: []))
    var other = SyncLoopState(mode: .realtime)
    other.requests = [3]
    #expect(other.stop() == [3])
    other.pushWanted = true
    #expect(other.nextPlan() == nil)
  }
}
