import CRDT
import Foundation

// The health check (grpc.health.v1.Health/Check and Yorkie's GET health path), which is not
// part of YorkieService; package only.

/// A health answer: `{"status":"serving"}` (GET) or `SERVING_STATUS_SERVING` (gRPC health).
package struct PBHealthCheckResponse: WireMessage, ProtoJSONMessage {
  package var status: String

  package init(status: String = "") {
    self.status = status
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(status: try r.string("status"))
  }

  package var json: WireJSON { protoJSON }


  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("status", status)

  }
}

/// An empty message, `{}` (requests and responses with no fields).
package struct PBEmpty: WireMessage, ProtoJSONMessage {
  package init() {}

  package init(json: WireJSON, path: String) throws(YorkieError) {
    _ = try ProtoJSONReader(json, path: path)
  }

  package var json: WireJSON { protoJSON }


  package func writeFields(to w: inout ProtoJSONWriter) {}
}
