#if canImport(SwiftUI)
import SwiftUI
import YorkieObservation

/// The same screen in SwiftUI: the view reads the model's properties; nothing else is needed.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
struct BoardView: View {
  let model: DocumentModel
  @State private var draft = ""

  var body: some View {
    let screen = BoardScreen(model: model)
    VStack(alignment: .leading) {
      Text("\(screen.connectionLabel) · \(screen.savedLabel)")
      ForEach(Array(screen.todos.enumerated()), id: \.offset) { index, todo in
        Button(todo.done ? "☑︎ \(todo.title)" : "☐ \(todo.title)") {
          Task { try? await screen.toggle(index) }
        }
      }
      TextField("New to-do", text: $draft)
        .onSubmit {
          let title = draft
          draft = ""
          Task { try? await screen.add(title) }
        }
      Text(screen.noteWithCursors)
    }
  }
}
#endif
