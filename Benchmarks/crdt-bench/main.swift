print("crdt-bench: no cases yet")
